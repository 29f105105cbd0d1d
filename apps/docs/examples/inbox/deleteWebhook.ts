import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Answers 204: the promise resolves with no data once the webhook is
// gone.
await inbox.delete("/v0/webhooks/{webhook_id}", {
  params: { path: { webhook_id: "wh_9Kx3Lm7Qp2Rt5Vn8" } },
});
