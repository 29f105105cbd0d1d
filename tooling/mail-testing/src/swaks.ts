import { spawn } from "node:child_process";
import { findProgram } from "./programs.ts";

export interface SwaksResult {
  /** 0 when the whole transaction succeeded; swaks's own codes otherwise (24: a recipient refused, 23: the sender). */
  readonly exitCode: number;
  /** The SMTP conversation as swaks prints it, standard output and error in the order they came. */
  readonly output: string;
}

/**
 * Runs Debian's `swaks` with these arguments (for example `--server 127.0.0.1:2525 --to a@pigeonhole.test`) to its
 * end, for at most `timeoutMs` (30 s by default), after which it is killed and the call fails with what it printed.
 */
export function swaks(args: readonly string[], options: { timeoutMs?: number } = {}): Promise<SwaksResult> {
  const program = findProgram("swaks", "swaks");
  const timeoutMs = options.timeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_ALL: "C" } });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      const output = Buffer.concat(chunks).toString("utf8");
      if (timedOut) {
        reject(new Error(`swaks ${args.join(" ")} did not finish within ${timeoutMs} ms. It printed:\n${output}`));
      } else if (code === null) {
        reject(new Error(`swaks ended by ${signal}. It printed:\n${output}`));
      } else {
        resolve({ exitCode: code, output });
      }
    });
  });
}
