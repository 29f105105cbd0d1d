import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Sent again now, with the same webhook-id: a receiver that deduplicates
// by it sees the same event once more.
const delivery = await inbox.post(
  "/v0/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver",
  {
    params: {
      path: {
        webhook_id: "wh_9Kx3Lm7Qp2Rt5Vn8",
        delivery_id: "dlv_4Tz8Qw2Er6Ty1Ui3",
      },
    },
  },
);

console.log(delivery.status, delivery.next_attempt_at);
