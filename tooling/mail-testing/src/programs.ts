import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** Debian puts Postfix's and Cyrus SASL's programs in /usr/sbin, which is not on every user's PATH. */
const SYSTEM_DIRS = ["/usr/sbin", "/usr/bin", "/sbin", "/bin"];

/** The path of a program from one of Debian's packages, or an error that says how to install the package. */
export function findProgram(name: string, debianPackage: string): string {
  const dirs = [...(process.env.PATH ?? "").split(delimiter).filter(Boolean), ...SYSTEM_DIRS];
  const found = dirs.map((dir) => join(dir, name)).find((path) => existsSync(path));
  if (found === undefined) {
    throw new Error(
      `${name} was not found on PATH or in ${SYSTEM_DIRS.join(", ")}. ` +
        `Install Debian's ${debianPackage} package with \`bash scripts/ensure-test-tools.sh\`.`,
    );
  }
  return found;
}

/** Messages in English, which the start-up reads. */
function programEnv(): NodeJS.ProcessEnv {
  return { ...process.env, LC_ALL: "C" };
}

/** Runs a program to its end and answers what it printed; a failure says what it printed on standard error. */
export async function runProgram(
  program: string,
  args: readonly string[],
  options: { input?: string; timeoutMs?: number } = {},
): Promise<string> {
  try {
    const child = execFileAsync(program, args, { env: programEnv(), timeout: options.timeoutMs ?? 30_000 });
    if (options.input !== undefined) {
      child.child.stdin?.end(options.input);
    }
    return (await child).stdout;
  } catch (error) {
    const stderr = error instanceof Error && "stderr" in error ? String(error.stderr).trim() : "";
    throw new Error(`${program} ${args.join(" ")} failed${stderr ? `: ${stderr}` : ""}`, { cause: error });
  }
}

/** The same, blocking: for the process's `exit` event, where nothing asynchronous runs any more. */
export function runProgramSync(program: string, args: readonly string[]): void {
  execFileSync(program, args, { env: programEnv(), timeout: 15_000, stdio: "ignore" });
}
