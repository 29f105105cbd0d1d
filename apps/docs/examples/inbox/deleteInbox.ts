import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Answers 204: the promise resolves with no data once the inbox, its
// messages, threads and pending deliveries are gone. The address is
// free to create again.
await inbox.delete("/v0/inboxes/{inbox_id}", {
  params: { path: { inbox_id: "support@pigeonhole.test" } },
});
