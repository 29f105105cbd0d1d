import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerLogger } from "../logger.ts";

/** What the listener serves: the metrics, rendered when scraped. */
export interface MetricsSource {
  render(): Promise<string>;
  readonly contentType: string;
}

export interface RunningMetricsListener {
  /** Where Prometheus scrapes, such as `http://127.0.0.1:9464/metrics`. */
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

export const METRICS_PATH = "/metrics";

function answer(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
  response.end(text);
}

/**
 * Serves `GET /metrics` on a listener of its own, apart from the APIs: another port, bound to its own interface
 * (loopback unless told otherwise), without a key. Anything else answers 404 or 405.
 */
export async function startMetricsListener(
  metrics: MetricsSource,
  { host, port, logger }: { host: string; port: number; logger: ServerLogger },
): Promise<RunningMetricsListener> {
  const server = createServer({ requestTimeout: 10_000, headersTimeout: 5_000 }, (request, response) => {
    void serve(metrics, request, response, logger);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const hostForUrl = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${hostForUrl}:${bound}${METRICS_PATH}`,
    host,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function serve(
  metrics: MetricsSource,
  request: IncomingMessage,
  response: ServerResponse,
  logger: ServerLogger,
): Promise<void> {
  const path = (request.url ?? "/").split("?")[0];
  if (path !== METRICS_PATH) {
    answer(response, 404, "Not found: metrics are at /metrics\n");
    return;
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    answer(response, 405, "Method not allowed\n", { allow: "GET, HEAD" });
    return;
  }
  try {
    const text = await metrics.render();
    response.writeHead(200, { "content-type": metrics.contentType });
    response.end(request.method === "HEAD" ? undefined : text);
  } catch (error) {
    logger.error("metrics could not be rendered", { error: error instanceof Error ? error.message : String(error) });
    answer(response, 500, "Metrics could not be rendered\n");
  }
}
