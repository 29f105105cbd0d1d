import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";

export interface ServiceAddress {
  url: string;
  apiKey: string;
}

export interface InstalledServer {
  inbox: ServiceAddress;
  forum: ServiceAddress;
  /** Stops the process: SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** `  Inbox API  http://127.0.0.1:40123   key: pigeonhole-inbox-dev`, as the CLI prints each service. */
const SERVICE_LINE = /^\s*(Inbox|Forum) API\s+(http:\/\/\S+)\s+key: (\S+)\s*$/;

async function stopProcess(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts the server a project installed, through the `pigeonhole-server` bin the package manager linked into its
 * `node_modules/.bin`, and resolves once it has printed where both services listen. The bin runs the `node` first
 * on the PATH of `env` (the whole environment of the process).
 */
export async function startInstalledServer(
  projectDir: string,
  args: string[],
  { env, timeoutMs = 20_000 }: { env: Record<string, string>; timeoutMs?: number },
): Promise<InstalledServer> {
  const child = spawn(join(projectDir, "node_modules", ".bin", "pigeonhole-server"), args, {
    cwd: projectDir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  // A test runner that dies must not leave the server running.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.off("exit", killOnExit));

  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const services = new Map<string, ServiceAddress>();
  const lines = createInterface({ input: child.stdout });

  try {
    const { inbox, forum } = await new Promise<{ inbox: ServiceAddress; forum: ServiceAddress }>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`pigeonhole-server printed no addresses within ${timeoutMs} ms.\n${stderr}`)),
        timeoutMs,
      );
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`pigeonhole-server exited (${signal ?? code}) before it was ready.\n${stderr}`));
      });
      lines.on("line", (line) => {
        const match = SERVICE_LINE.exec(line);
        if (match?.[1] && match[2] && match[3]) {
          services.set(match[1].toLowerCase(), { url: match[2], apiKey: match[3] });
        }
        const inbox = services.get("inbox");
        const forum = services.get("forum");
        if (inbox && forum) {
          clearTimeout(timer);
          resolve({ inbox, forum });
        }
      });
    });
    return { inbox, forum, stop: (graceMs = 5_000) => stopProcess(child, graceMs) };
  } catch (error) {
    await stopProcess(child, 2_000);
    throw error;
  }
}
