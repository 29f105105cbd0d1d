import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Conversations of the inbox holding a message that matches, ranked by
// their best matching message.
const found = await inbox.get("/v0/inboxes/{inbox_id}/threads/search", {
  params: {
    path: { inbox_id: "support@pigeonhole.test" },
    query: { q: "invoice" },
  },
});
for (const thread of found.threads) {
  console.log(thread.thread_id, thread.subject, thread.message_count);
}
