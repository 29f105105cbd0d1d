import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// One inbox's received messages per day over the last week.
const week = 7 * 24 * 60 * 60 * 1000;
const counts = await inbox.get(
  "/v0/inboxes/{inbox_id}/metrics/events",
  {
    params: {
      path: { inbox_id: "support@pigeonhole.test" },
      query: {
        event_types: ["message.received"],
        start: new Date(Date.now() - week).toISOString(),
        period: 24 * 60 * 60,
      },
    },
  },
);

for (const period of counts["message.received"] ?? []) {
  console.log(period.timestamp, period.count);
}
