// Streamable HTTP, stateless: each POST to /mcp gets a fresh server session, so nothing is kept between requests
// and any number of clients share one process. It binds loopback by default, and there refuses any other Host
// header, so that a web page cannot reach it through DNS rebinding: whoever reaches it uses the API keys.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createMcpServer } from "./mcp-server.js";
import type { RunnableTool } from "./tools.js";

export const DEFAULT_HTTP_HOST = "127.0.0.1";
export const DEFAULT_HTTP_PORT = 4030;
export const MCP_PATH = "/mcp";

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export interface HttpServerOptions {
  tools: readonly RunnableTool[];
  host?: string;
  /** 0 picks a free port. */
  port?: number;
}

export interface RunningHttpServer {
  /** The MCP endpoint, such as `http://127.0.0.1:4030/mcp`. */
  url: string;
  close(): Promise<void>;
}

export const isLoopback = (host: string) => LOOPBACK_NAMES.has(host);

/** The host name of a `Host` header (`127.0.0.1:4030` -> `127.0.0.1`, `[::1]:4030` -> `[::1]`). */
function hostName(header: string | undefined): string {
  return (header ?? "").replace(/:\d+$/, "").toLowerCase();
}

function answer(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

async function handle(req: IncomingMessage, res: ServerResponse, tools: readonly RunnableTool[], host: string) {
  if (new URL(req.url ?? "/", "http://localhost").pathname !== MCP_PATH) {
    return answer(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}.`);
  }
  if (isLoopback(host) && !LOOPBACK_NAMES.has(hostName(req.headers.host))) {
    return answer(res, 403, "Forbidden: this server answers only requests addressed to the loopback interface.");
  }
  if (req.method !== "POST") {
    // Stateless: no session to stream to (GET) or to end (DELETE).
    return answer(res, 405, "Method not allowed: send JSON-RPC requests with POST.", { allow: "POST" });
  }
  const server = createMcpServer(tools);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

export function startHttpServer({
  tools,
  host = DEFAULT_HTTP_HOST,
  port = DEFAULT_HTTP_PORT,
}: HttpServerOptions): Promise<RunningHttpServer> {
  const server = createServer((req, res) => {
    handle(req, res, tools, host).catch((error: unknown) => {
      if (!res.headersSent) {
        answer(res, 500, error instanceof Error ? error.message : "Internal error.");
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      const shown = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${bound}${MCP_PATH}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
