import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** The account a process runs as, when it must not be the current one. */
export interface Account {
  readonly uid: number;
  readonly gid: number;
}

export interface RunOptions {
  readonly as?: Account | undefined;
  readonly cwd?: string;
}

/**
 * The environment for PostgreSQL's programs: without the `PG*` variables, which would otherwise override the
 * connection and server settings passed to them, and with messages in English, which the start-up reads.
 */
function programEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("PG")));
  return { ...env, LC_ALL: "C" };
}

function describeFailure(program: string, args: readonly string[], error: unknown): Error {
  const stderr = error instanceof Error && "stderr" in error ? String(error.stderr).trim() : "";
  return new Error(`${program} ${args.join(" ")} failed${stderr ? `: ${stderr}` : ""}`, { cause: error });
}

/** Runs a program to its end and answers what it printed; a failure carries its standard error. */
export async function runProgram(program: string, args: readonly string[], options: RunOptions = {}): Promise<string> {
  try {
    const { stdout } = await execFileAsync(program, args, {
      env: programEnv(),
      cwd: options.cwd,
      uid: options.as?.uid,
      gid: options.as?.gid,
      timeout: 60_000,
    });
    return stdout;
  } catch (error) {
    throw describeFailure(program, args, error);
  }
}

/** The same, blocking: for the process's `exit` event, where nothing asynchronous runs any more. */
export function runProgramSync(program: string, args: readonly string[], options: RunOptions = {}): void {
  execFileSync(program, args, {
    env: programEnv(),
    cwd: options.cwd,
    uid: options.as?.uid,
    gid: options.as?.gid,
    timeout: 30_000,
    stdio: "ignore",
  });
}

/**
 * The account the cluster runs as. PostgreSQL refuses to run as root, so as root it runs as Debian's `postgres`
 * account; any other user runs it as themselves.
 */
export async function clusterAccount(): Promise<Account | undefined> {
  if (process.getuid?.() !== 0) {
    return undefined;
  }
  try {
    const [uid, gid] = await Promise.all([runProgram("id", ["-u", "postgres"]), runProgram("id", ["-g", "postgres"])]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  } catch (error) {
    throw new Error(
      "PostgreSQL refuses to run as root, and this machine has no `postgres` account to run it as. " +
        "Debian's postgresql package creates one: install it with `bash scripts/ensure-test-tools.sh`.",
      { cause: error },
    );
  }
}
