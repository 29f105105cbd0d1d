import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { createAdaptorServer } from "@hono/node-server";
import type { Hono } from "hono";

export interface RunningServer {
  /** Base address, such as `http://127.0.0.1:4010`. */
  url: string;
  port: number;
  /** Stops accepting connections and resolves once in-flight requests have finished (or after `graceMs`). */
  close(graceMs?: number): Promise<void>;
}

// Hono apps differ in their variable types; the server only needs `fetch`.
type FetchApp = Pick<Hono, "fetch">;

export function formatUrl(host: string, port: number): string {
  const hostPart = host.includes(":") ? `[${host}]` : host;
  return `http://${hostPart}:${port}`;
}

/**
 * How long clients may take (0 turns a limit off). A client slower than these is answered 408 and disconnected, so
 * connections that trickle in a request (slowloris) cannot pile up.
 */
export interface ListenOptions {
  /** Until a request's headers have arrived in full. Default 15 s. */
  headersTimeoutMs?: number;
  /** Until a whole request, body included, has arrived (bodies reach 10 MiB). Default 60 s. */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open. Default 5 s. */
  keepAliveTimeoutMs?: number;
  /** Serves requests that ask to switch protocols (WebSocket); without it they are refused. */
  onUpgrade?(request: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/** Serves a Hono app on Node's HTTP server. */
export async function listen(
  app: FetchApp,
  host: string,
  port: number,
  options: ListenOptions = {},
): Promise<RunningServer> {
  const { headersTimeoutMs = 15_000, requestTimeoutMs = 60_000, keepAliveTimeoutMs = 5_000 } = options;
  const server = createAdaptorServer({
    fetch: app.fetch,
    hostname: host,
    serverOptions: {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      // Node looks for expired requests at this interval (30 s by default), which would stretch the timeouts.
      connectionsCheckingInterval: Math.min(1_000, ...[headersTimeoutMs, requestTimeoutMs].filter((ms) => ms > 0)),
    },
  }) as Server;
  if (options.onUpgrade) {
    server.on("upgrade", options.onUpgrade);
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: formatUrl(host, actualPort),
    port: actualPort,
    close(graceMs = 5_000) {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        // Idle keep-alive connections would otherwise hold the close open.
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
