import type { InboxClient, Webhook } from "@pigeonhole/inbox";

/** Identifies the sample's webhook, so that a restart finds it again instead of adding another. */
export const WEBHOOK_CLIENT_ID = "pigeonhole-sample";

/**
 * Registers the webhook that delivers `message.received` events to `url`. Creating it again with the same
 * `client_id` returns the existing webhook unchanged; if it points elsewhere (the server moved to another port),
 * it is replaced (PUT replaces the whole webhook, its secret excepted).
 */
export async function registerWebhook(inbox: InboxClient, url: string): Promise<Webhook> {
  const settings = { url, client_id: WEBHOOK_CLIENT_ID, event_types: ["message.received" as const] };
  const webhook = await inbox.post("/v0/webhooks", { body: settings });
  if (webhook.url === url && webhook.enabled) {
    return webhook;
  }
  return inbox.put("/v0/webhooks/{webhook_id}", {
    params: { path: { webhook_id: webhook.webhook_id } },
    body: settings,
  });
}
