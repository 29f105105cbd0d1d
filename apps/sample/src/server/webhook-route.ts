import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from "@pigeonhole/inbox";
import { Hono } from "hono";
import { log } from "./log.ts";

/** How many event ids to remember: deliveries are at least once, and a repeat comes soon after the first. */
const REMEMBERED_EVENTS = 1_000;

export interface WebhookRouteOptions {
  /** The webhook's signing secret (`whsec_...`), or undefined while it is not registered yet. */
  secret: () => string | undefined;
  /** Called once per event, however often it is delivered. */
  onEvent: (event: WebhookEvent) => void;
}

/** Receives the Inbox API's webhook deliveries: checks the signature, drops repeats, and passes each event on. */
export function webhookRoute({ secret, onEvent }: WebhookRouteOptions) {
  const seen = new Set<string>();
  return new Hono().post("/", async (c) => {
    const key = secret();
    if (key === undefined) {
      // Not registered yet; the Inbox API delivers again later.
      return c.text("webhook not registered yet", 503);
    }
    let event: WebhookEvent;
    try {
      // The raw body, exactly as received: re-serialised JSON would not match the signature.
      event = await verifyWebhook(await c.req.text(), c.req.raw.headers, key);
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        log(`rejected a webhook delivery: ${error.reason}`);
        return c.text(error.reason, 400);
      }
      throw error;
    }
    if (!seen.has(event.event_id)) {
      seen.add(event.event_id);
      if (seen.size > REMEMBERED_EVENTS) {
        // A Set iterates in insertion order, so this forgets the oldest id.
        seen.delete(seen.values().next().value as string);
      }
      onEvent(event);
    }
    return c.body(null, 204);
  });
}
