import { execFile } from "node:child_process";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

export interface RunOptions {
  cwd: string;
  /** Added to (or, with `undefined`, removed from) this process's environment. */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

/** Runs a command and returns its stdout; when it fails, the error carries its output, not just an exit code. */
export async function runCommand(command: string, args: string[], options: RunOptions): Promise<string> {
  const env = { ...process.env };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) {
      delete env[name];
    } else {
      env[name] = value;
    }
  }
  try {
    const { stdout } = await execFileAsync(command, args, {
      cwd: options.cwd,
      env,
      timeout: options.timeoutMs ?? 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${options.cwd}:\n${stdout}\n${stderr}`);
  }
}
