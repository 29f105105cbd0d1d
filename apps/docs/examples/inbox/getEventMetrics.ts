import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// The pod's events of the last 24 hours, counted by type and hour.
const counts = await inbox.get("/v0/metrics/events", {
  params: {
    query: { event_types: ["message.received", "message.sent"] },
  },
});

for (const [type, periods] of Object.entries(counts)) {
  const total = (periods ?? []).reduce(
    (sum, period) => sum + period.count,
    0,
  );
  console.log(type, total);
}
