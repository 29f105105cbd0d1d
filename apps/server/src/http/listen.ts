import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { createAdaptorServer } from "@hono/node-server";
import type { Hono } from "hono";

export interface RunningServer {
  /** Base address, such as `http://127.0.0.1:4010`. */
  url: string;
  port: number;
  /**
   * Starts a drain: each connection open now ends after its next answer (`Connection: close`), so that its holder
   * reconnects elsewhere; connections opened from now on are kept, so that a balancer still sending here reuses them
   * rather than opening one per request. After a drain, `close` leaves idle connections to end on their own.
   */
  drain(): void;
  /**
   * Stops accepting connections and resolves once in-flight requests have finished (or after `graceMs`); every answer
   * from then on closes its connection. Idle connections are closed at once, unless a drain came first: then they
   * end after their next answer or when idle past the keep-alive timeout, which a balancer's own, shorter one beats
   * (closing one at once could cut a request a balancer is sending on it that very moment, which it cannot retry).
   */
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
  const ending = connectionsToEnd(server);
  let closing: Promise<void> | undefined;
  return {
    url: formatUrl(host, actualPort),
    port: actualPort,
    drain: () => ending.openNow(),
    close(graceMs = 5_000) {
      closing ??= new Promise<void>((resolve) => {
        const drained = ending.drained;
        ending.all();
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        timer.unref();
        if (drained) {
          // `close` closes the idle connections through this method.
          server.closeIdleConnections = () => {};
        }
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      return closing;
    },
  };
}

/** Which connections end after their next answer: none, those open when a drain began, or all of them. */
function connectionsToEnd(server: Server) {
  const open = new Set<Socket>();
  // The answer each connection is giving, while it gives one.
  const answering = new Map<Socket, ServerResponse>();
  server.on("connection", (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  });
  let ending: ReadonlySet<Socket> | "all" | undefined;
  const endAfter = (response: ServerResponse) => {
    if (!response.headersSent) {
      response.setHeader("connection", "close");
    }
  };
  // Before the app's listener, which may answer at once.
  server.prependListener("request", (request: IncomingMessage, response: ServerResponse) => {
    const { socket } = request;
    if (ending === "all" || ending?.has(socket)) {
      endAfter(response);
    }
    answering.set(socket, response);
    response.once("close", () => answering.delete(socket));
  });
  return {
    get drained() {
      return ending !== undefined;
    },
    openNow() {
      if (ending === undefined) {
        ending = new Set(open);
        answering.forEach(endAfter);
      }
    },
    all() {
      ending = "all";
      answering.forEach(endAfter);
    },
  };
}
