// Runs in Chromium, bundled by esbuild from the built package, as an app would ship it.
import { createInboxClient, NotFoundError, verifyWebhook, WebhookVerificationError } from "@pigeonhole/inbox";

interface Delivery {
  body: string;
  headers: Record<string, string>;
  secret: string;
}

async function runChecks(delivery: Delivery) {
  const inbox = createInboxClient({ apiKey: "browser-key", baseUrl: location.origin });
  const listed: string[] = [];
  for await (const item of inbox.paginate("/v0/inboxes", { params: { query: { limit: 1 } } })) {
    listed.push(item.inbox_id);
  }
  const missing = await inbox
    .get("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: "nobody@pigeonhole.test" } } })
    .catch((error: unknown) => (error instanceof NotFoundError ? `${error.name}: ${error.message}` : String(error)));
  const sent = await inbox.post("/v0/inboxes/{inbox_id}/messages", {
    params: { path: { inbox_id: "support@pigeonhole.test" } },
    body: { to: "ada@pigeonhole.test", text: "from a browser" },
  });
  const event = await verifyWebhook(delivery.body, new Headers(delivery.headers), delivery.secret);
  const forged = await verifyWebhook(`${delivery.body} `, new Headers(delivery.headers), delivery.secret).catch(
    (error: unknown) => (error instanceof WebhookVerificationError ? error.reason : String(error)),
  );
  const timedOut = await inbox
    .get("/v0/inboxes", { params: { query: { limit: 99 } }, timeout: 50, maxRetries: 0 })
    .catch((error: unknown) => (error instanceof Error ? error.name : String(error)));
  return { listed, missing, sent, eventType: event.event_type, forged, timedOut };
}

Object.assign(globalThis, { runChecks });
