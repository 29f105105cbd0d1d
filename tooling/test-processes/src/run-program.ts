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
  /** The program's environment: by default this process's, with messages in English (`LC_ALL=C`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Written to the program's standard input, which is then closed. */
  readonly input?: string;
  /** The program is killed after this long, and the run fails (30 s by default). */
  readonly timeoutMs?: number;
}

export type RunSyncOptions = Omit<RunOptions, "input">;

/** Messages in English, which the start-ups read. */
function englishEnv(): NodeJS.ProcessEnv {
  return { ...process.env, LC_ALL: "C" };
}

/**
 * Runs a program to its end, for at most `timeoutMs`, and answers what it printed; a failure says what it printed on
 * standard error.
 */
export async function runProgram(program: string, args: readonly string[], options: RunOptions = {}): Promise<string> {
  try {
    const child = execFileAsync(program, args, {
      env: options.env ?? englishEnv(),
      cwd: options.cwd,
      uid: options.as?.uid,
      gid: options.as?.gid,
      timeout: options.timeoutMs ?? 30_000,
    });
    if (options.input !== undefined) {
      child.child.stdin?.end(options.input);
    }
    return (await child).stdout;
  } catch (error) {
    const stderr = error instanceof Error && "stderr" in error ? String(error.stderr).trim() : "";
    throw new Error(`${program} ${args.join(" ")} failed${stderr ? `: ${stderr}` : ""}`, { cause: error });
  }
}

/**
 * The same, blocking and printing nothing (15 s at most by default): for the process's `exit` event, where nothing
 * asynchronous runs any more.
 */
export function runProgramSync(program: string, args: readonly string[], options: RunSyncOptions = {}): void {
  execFileSync(program, args, {
    env: options.env ?? englishEnv(),
    cwd: options.cwd,
    uid: options.as?.uid,
    gid: options.as?.gid,
    timeout: options.timeoutMs ?? 15_000,
    stdio: "ignore",
  });
}

/** The ids of a system account (one that a Debian package creates), or an error that `missing` explains. */
export async function systemAccount(name: string, missing: string): Promise<Account> {
  try {
    const [uid, gid] = await Promise.all([runProgram("id", ["-u", name]), runProgram("id", ["-g", name])]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  } catch (error) {
    throw new Error(missing, { cause: error });
  }
}
