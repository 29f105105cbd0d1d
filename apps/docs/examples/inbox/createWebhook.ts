import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

const webhook = await inbox.post("/v0/webhooks", {
  body: {
    url: "https://hooks.example.com/pigeonhole",
    event_types: ["message.received"],
    inbox_ids: ["support@pigeonhole.test"],
    client_id: "support-hook-v1",
  },
});

// Keep the secret with your receiver: it verifies the signature of
// every delivery.
console.log(webhook.webhook_id, webhook.secret);
