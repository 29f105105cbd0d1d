import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type InboxClient, verifyWebhook } from "@pigeonhole/inbox";
import { afterAll } from "vitest";

export type WebhookEvent = Awaited<ReturnType<typeof verifyWebhook>>;

/**
 * Your webhook endpoint, on 127.0.0.1 for the test file: it checks each
 * delivery's signature and keeps the events it received, in order, and
 * the ids it handled, so that a repeat is handled once.
 */
export async function startReceiver(inbox: InboxClient) {
  let secret = "";
  const received: WebhookEvent[] = [];
  const handled = new Set<string>();
  const receiver = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) {
      chunks.push(chunk as Buffer);
    }
    const body = Buffer.concat(chunks);
    const event = await verifyWebhook(body, request.headers, secret);
    received.push(event);
    handled.add(event.event_id);
    response.writeHead(204).end();
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  afterAll(() => {
    receiver.close();
  });
  const { port } = receiver.address() as AddressInfo;

  return {
    received,
    handled,
    /** Registers a webhook of the current key for these events. */
    async subscribe(event_types: WebhookEvent["event_type"][]) {
      const webhook = await inbox.post("/v0/webhooks", {
        body: { url: `http://127.0.0.1:${port}/hooks`, event_types },
      });
      secret = webhook.secret;
      return webhook;
    },
  };
}
