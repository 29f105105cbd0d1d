import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// PUT replaces the settings: a field you leave out goes back to its
// default.
const webhook = await inbox.put("/v0/webhooks/{webhook_id}", {
  params: { path: { webhook_id: "wh_9Kx3Lm7Qp2Rt5Vn8" } },
  body: {
    url: "https://hooks.example.com/pigeonhole/v2",
    event_types: ["message.received", "message.sent"],
    enabled: true,
  },
});

console.log(webhook.updated_at);
