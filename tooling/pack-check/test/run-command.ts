import { execFile } from "node:child_process";

export interface RunOptions {
  cwd: string;
  /** The whole environment of the command (default: this process's). */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

export interface Exit {
  /** The exit code, or null when a signal ended the process. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end and tells how it ended, whatever that was. */
export function runToExit(command: string, args: string[], options: RunOptions): Promise<Exit> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? process.env,
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: 16 * 1024 * 1024,
        encoding: "utf8",
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number" && !error.signal) {
          // Not an exit status: the command could not be started at all.
          reject(error);
          return;
        }
        resolve({
          code: error ? (typeof error.code === "number" ? error.code : null) : 0,
          signal: (error?.signal as NodeJS.Signals | undefined) ?? null,
          stdout,
          stderr,
        });
      },
    );
  });
}

/** Runs a command and returns its stdout; when it fails, the error carries its output, not just an exit code. */
export async function runCommand(command: string, args: string[], options: RunOptions): Promise<string> {
  const exit = await runToExit(command, args, options);
  if (exit.code !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} failed (${exit.signal ?? exit.code}) in ${options.cwd}:\n${exit.stdout}\n${exit.stderr}`,
    );
  }
  return exit.stdout;
}
