import {
  type Account,
  type RunOptions,
  type RunSyncOptions,
  runProgram as runAny,
  runProgramSync as runAnySync,
  systemAccount,
} from "@pigeonhole/test-processes";

export type { Account };

/**
 * The environment for PostgreSQL's programs: without the `PG*` variables, which would otherwise override the
 * connection and server settings passed to them, and with messages in English, which the start-up reads.
 */
function programEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("PG")));
  return { ...env, LC_ALL: "C" };
}

/** Runs one of PostgreSQL's programs to its end, for at most a minute, and answers what it printed. */
export function runProgram(
  program: string,
  args: readonly string[],
  options: Omit<RunOptions, "env"> = {},
): Promise<string> {
  return runAny(program, args, { timeoutMs: 60_000, ...options, env: programEnv() });
}

/** The same, blocking: for the process's `exit` event, where nothing asynchronous runs any more. */
export function runProgramSync(
  program: string,
  args: readonly string[],
  options: Omit<RunSyncOptions, "env"> = {},
): void {
  runAnySync(program, args, { timeoutMs: 30_000, ...options, env: programEnv() });
}

/**
 * The account the cluster runs as. PostgreSQL refuses to run as root, so as root it runs as Debian's `postgres`
 * account; any other user runs it as themselves.
 */
export async function clusterAccount(): Promise<Account | undefined> {
  if (process.getuid?.() !== 0) {
    return undefined;
  }
  return systemAccount(
    "postgres",
    "PostgreSQL refuses to run as root, and this machine has no `postgres` account to run it as. " +
      "Debian's postgresql package creates one: install it with `bash scripts/ensure-test-tools.sh`.",
  );
}
