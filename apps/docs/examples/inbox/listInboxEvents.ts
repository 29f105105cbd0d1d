import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// The inbox's stored events (kept 7 days), newest first.
for await (const event of inbox.paginate(
  "/v0/inboxes/{inbox_id}/events",
  {
    params: { path: { inbox_id: "support@pigeonhole.test" } },
  },
)) {
  console.log(event.event_at, event.event_type, event.message_id);
}
