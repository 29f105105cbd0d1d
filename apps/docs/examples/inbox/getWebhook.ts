import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

const webhook = await inbox.get("/v0/webhooks/{webhook_id}", {
  params: { path: { webhook_id: "wh_9Kx3Lm7Qp2Rt5Vn8" } },
});

console.log(
  webhook.url,
  webhook.event_types ?? "all events",
  webhook.inbox_ids ?? "all inboxes",
);
