import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Deletes the conversation and its messages in this inbox.
await inbox.delete("/v0/inboxes/{inbox_id}/threads/{thread_id}", {
  params: {
    path: {
      inbox_id: "support@pigeonhole.test",
      thread_id: "thd_7Hq2mZ4kP9xR3vLc",
    },
  },
});
