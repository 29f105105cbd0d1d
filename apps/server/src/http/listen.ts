import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
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

/** Serves a Hono app on Node's HTTP server. */
export async function listen(app: FetchApp, host: string, port: number): Promise<RunningServer> {
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host }) as Server;
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
