import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();
const inbox_id = "support@pigeonhole.test";

// Every word of `q` must start a word of the message: in its subject, its
// sender and recipients, its text or its html. The best match comes
// first: a match in the subject before one in the addresses, before one
// in the body.
const found = await inbox.get(
  "/v0/inboxes/{inbox_id}/messages/search",
  {
    params: { path: { inbox_id }, query: { q: "ship week" } },
  },
);
for (const message of found.messages) {
  console.log(message.subject, "from", message.from);
}

// Conversations, by the messages they hold.
const threads = await inbox.get(
  "/v0/inboxes/{inbox_id}/threads/search",
  {
    params: { path: { inbox_id }, query: { q: "order" } },
  },
);
for (const thread of threads.threads) {
  console.log(thread.subject, thread.message_count);
}
