import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

export interface CeilingProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const CEILING_SERVER = fileURLToPath(new URL("./ceiling-server.ts", import.meta.url));
const START_TIMEOUT_MS = 10_000;

/** Starts the trivial-handler server in a process of its own and resolves with its address once it listens. */
export async function startCeiling(): Promise<CeilingProcess> {
  const child = spawn(process.execPath, [CEILING_SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = once(child, "exit");
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`The ceiling server did not start within ${START_TIMEOUT_MS} ms.`));
    }, START_TIMEOUT_MS);
    child.stdout.once("data", (chunk: Buffer) => {
      clearTimeout(timer);
      resolve(chunk.toString().trim());
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`The ceiling server exited with ${code}.`));
    });
  });
  const { pid } = child;
  if (pid === undefined) {
    throw new Error("The ceiling server has no process id.");
  }
  return {
    url,
    pid,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}
