import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Every delivery of the webhook, newest first, with each attempt.
for await (const delivery of inbox.paginate(
  "/v0/webhooks/{webhook_id}/deliveries",
  { params: { path: { webhook_id: "wh_9Kx3Lm7Qp2Rt5Vn8" } } },
)) {
  const last = delivery.attempts.at(-1);
  console.log(
    delivery.event_type,
    delivery.status,
    `${delivery.attempts.length} attempts`,
    last
      ? `last: ${last.status_code ?? last.error}`
      : "not attempted yet",
  );
}
