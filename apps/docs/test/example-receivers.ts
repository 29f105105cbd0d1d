// The reference's webhook receivers (the fetch handlers `examples/inbox/on*.ts` export) behind a real webhook.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { EventType, InboxClient } from "@pigeonhole/inbox";
import { vi } from "vitest";

export type Handler = (request: Request) => Promise<Response>;

/** What a test undoes afterwards, last first. */
export type Cleanups = (() => Promise<void> | void)[];

export interface ExampleReceivers {
  /** The examples' handlers, in the order they were named. */
  handlers: Handler[];
  /** What the examples printed, a line per `console.log` call. */
  logs: string[];
  /** Every answer the handlers gave, in order. */
  statuses: number[];
}

/**
 * Makes a webhook of `inbox` for `eventTypes` and points it at a server on 127.0.0.1 that hands each delivery to every
 * named example (`onMessageReceived`, ...) and answers with the first one's status.
 */
export async function receiveWithExamples(
  inbox: InboxClient,
  eventTypes: EventType[],
  examples: readonly string[],
  cleanups: Cleanups,
): Promise<ExampleReceivers> {
  const webhook = await inbox.post("/v0/webhooks", {
    body: { url: "http://127.0.0.1:9/unused", event_types: eventTypes },
  });
  cleanups.push(() =>
    inbox.delete("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: webhook.webhook_id } } }),
  );
  // The examples read the secret when they load, as a receiver reads its configuration at start.
  vi.stubEnv("PIGEONHOLE_WEBHOOK_SECRET", webhook.secret);
  cleanups.push(() => {
    vi.unstubAllEnvs();
  });
  const handlers = await Promise.all(
    examples.map(async (example) => {
      const module = (await import(new URL(`../examples/inbox/${example}.ts`, import.meta.url).href)) as {
        handleDelivery: Handler;
      };
      return module.handleDelivery;
    }),
  );

  const logs: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...parts: unknown[]) => {
    logs.push(parts.join(" "));
  });
  cleanups.push(() => log.mockRestore());
  const statuses: number[] = [];
  const receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    const answers: Response[] = [];
    for (const handler of handlers) {
      answers.push(
        await handler(
          new Request(`http://127.0.0.1${req.url}`, {
            method: "POST",
            headers: req.headers as Record<string, string>,
            body: Buffer.concat(chunks),
          }),
        ),
      );
    }
    statuses.push(...answers.map((answer) => answer.status));
    res.writeHead(answers[0]?.status ?? 500).end();
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  cleanups.push(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
  const { port } = receiver.address() as AddressInfo;
  // PUT keeps the secret: point the webhook at the receiver now that it listens.
  await inbox.put("/v0/webhooks/{webhook_id}", {
    params: { path: { webhook_id: webhook.webhook_id } },
    body: { url: `http://127.0.0.1:${port}/hooks`, event_types: eventTypes },
  });
  return { handlers, logs, statuses };
}
