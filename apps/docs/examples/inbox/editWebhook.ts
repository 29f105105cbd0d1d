import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// PATCH changes only what you send: here, one more inbox in the filter.
const webhook = await inbox.patch("/v0/webhooks/{webhook_id}", {
  params: { path: { webhook_id: "wh_9Kx3Lm7Qp2Rt5Vn8" } },
  body: { add_inbox_ids: ["sales@pigeonhole.test"] },
});

console.log(webhook.inbox_ids);
