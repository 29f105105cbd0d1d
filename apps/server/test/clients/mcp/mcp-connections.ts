// The built `pigeonhole-mcp` bin of `@pigeonhole/mcp` (after `pnpm --filter @pigeonhole/mcp build`), reached as a
// user's MCP client reaches it: spawned over stdio by the official SDK's client, or spawned with --http and reached
// over Streamable HTTP.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { packageBin } from "./package-bin.ts";

export const CLI = packageBin("@pigeonhole/mcp", "pigeonhole-mcp");

export type McpEnv = Record<string, string>;

/** What the bin sees: a clean environment with only the PATH and the given variables. */
export const binEnv = (env: McpEnv): McpEnv => ({ PATH: process.env.PATH ?? "", ...env });

export interface Connection {
  client: Client;
  /** What the bin wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

const newClient = () => new Client({ name: "pigeonhole-mcp-test", version: "1.0.0" });

export async function connectStdio(env: McpEnv): Promise<Connection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI],
    env: binEnv(env),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = newClient();
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** The bin serving Streamable HTTP on a free port of 127.0.0.1, once it says where. */
export async function startHttpBin(env: McpEnv): Promise<{ url: string; process: ChildProcess; stderr(): string }> {
  const child = spawn(process.execPath, [CLI, "--http", "--port", "0"], { env: binEnv(env), stdio: "pipe" });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const found = stderr.match(/Streamable HTTP at (\S+)/);
      if (found?.[1]) {
        resolve(found[1]);
      }
    });
    child.once("exit", (code) => reject(new Error(`pigeonhole-mcp --http exited with ${code}: ${stderr}`)));
  });
  return { url, process: child, stderr: () => stderr };
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
  }
}

export async function connectHttp(env: McpEnv): Promise<Connection> {
  const bin = await startHttpBin(env);
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(bin.url)));
  return {
    client,
    stderr: bin.stderr,
    close: async () => {
      await client.close();
      await stopProcess(bin.process);
    },
  };
}
