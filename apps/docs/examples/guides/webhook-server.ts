import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  verifyWebhook,
  WebhookVerificationError,
} from "@pigeonhole/inbox";

// The webhook's `secret` (whsec_...), as Create Webhook answered it.
const secret = process.env.PIGEONHOLE_WEBHOOK_SECRET ?? "";
const port = Number(process.env.PORT ?? 8787);
// Deliveries are at-least-once: remember what you handled (in a
// database, in production).
const seen = new Set<string>();

const server = createServer(async (request, response) => {
  if (request.method !== "POST" || request.url !== "/pigeonhole") {
    response.writeHead(404).end();
    return;
  }
  // The signature covers the raw bytes: read the body as it came, do
  // not parse and re-serialize it first.
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    chunks.push(chunk as Buffer);
  }
  const rawBody = Buffer.concat(chunks);

  try {
    const event = await verifyWebhook(rawBody, request.headers, secret);
    // Answer fast (within 15 s); do slow work after answering.
    response.writeHead(204).end();
    if (seen.has(event.event_id)) {
      return;
    }
    seen.add(event.event_id);
    if (event.event_type === "message.received") {
      console.log(
        `new mail for ${event.message.inbox_id} from ${event.message.from}: ${event.message.subject}`,
      );
    } else if (event.event_type === "message.sent") {
      console.log(
        `${event.send.inbox_id} sent ${event.send.message_id}`,
      );
    } else {
      // message.delivered, message.delayed or message.bounced: what
      // the relay answered for mail to outside addresses.
      console.log(`${event.event_type} ${event.event_id}`);
    }
  } catch (error) {
    const status =
      error instanceof WebhookVerificationError ? 400 : 500;
    response.writeHead(status).end();
  }
});

server.listen(port, "127.0.0.1", () => {
  const { port: bound } = server.address() as AddressInfo;
  console.log(`listening on http://127.0.0.1:${bound}/pigeonhole`);
});
