import type { IncomingHttpHeaders } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

/**
 * A local HTTP server that records webhook deliveries and answers each with the status `respond` chooses. On port 0
 * (the default) the system picks a free port.
 */
export async function startWebhookReceiver(
  respond: (delivery: ReceivedDelivery, index: number) => number = () => 200,
  port = 0,
) {
  const deliveries: ReceivedDelivery[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const delivery = {
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        receivedAt: Date.now(),
      };
      const status = respond(delivery, deliveries.length);
      deliveries.push(delivery);
      response.writeHead(status).end();
      for (const waiter of waiters.filter((w) => deliveries.length >= w.count)) {
        waiter.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}/hook`,
    port: actualPort,
    deliveries,
    /** Resolves once `count` deliveries arrived; rejects after `timeoutMs`. */
    waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedDelivery[]> {
      if (deliveries.length >= count) {
        return Promise.resolve(deliveries);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`Expected ${count} deliveries within ${timeoutMs} ms, got ${deliveries.length}.`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(deliveries);
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
