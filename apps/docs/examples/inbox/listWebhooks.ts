import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

for await (const webhook of inbox.paginate("/v0/webhooks", {})) {
  console.log(
    webhook.webhook_id,
    webhook.url,
    webhook.enabled ? "enabled" : "disabled",
    webhook.event_types,
  );
}
