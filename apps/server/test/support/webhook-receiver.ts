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

/**
 * A local HTTP server that takes each webhook delivery in full and never answers it, as a receiver that hangs does:
 * the connection stays open until the sender gives up (or the receiver closes). It counts the requests it holds and
 * those whose sender gave up.
 */
export async function startHangingReceiver() {
  let held = 0;
  let abandoned = 0;
  const changes: (() => void)[] = [];
  const changed = () => {
    for (const notify of changes.splice(0)) {
      notify();
    }
  };
  const server = createServer((request, response) => {
    let received = false;
    request.resume();
    request.on("end", () => {
      received = true;
      held += 1;
      changed();
    });
    response.on("close", () => {
      if (received) {
        held -= 1;
        abandoned += 1;
        changed();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const actualPort = (server.address() as AddressInfo).port;
  /** Resolves once `done()` holds, looking again after each change. */
  const until = async (done: () => boolean) => {
    while (!done()) {
      await new Promise<void>((resolve) => changes.push(resolve));
    }
  };
  return {
    url: `http://127.0.0.1:${actualPort}/hook`,
    /** Requests received in full and held open now. */
    held: () => held,
    /** Requests whose sender closed the connection, having waited for an answer in vain. */
    abandoned: () => abandoned,
    /** Resolves once at least `count` requests are held at once. */
    holding: (count: number) => until(() => held >= count),
    /** Resolves once a sender gave up on one of the held requests. */
    firstAbandoned: () => until(() => abandoned > 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
