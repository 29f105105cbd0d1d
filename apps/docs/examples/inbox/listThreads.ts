import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Threads (conversations) of the inbox, newest first.
const threads = inbox.paginate("/v0/inboxes/{inbox_id}/threads", {
  params: { path: { inbox_id: "support@pigeonhole.test" } },
});

for await (const thread of threads) {
  console.log(
    thread.thread_id,
    thread.subject,
    `${thread.message_count} messages`,
    thread.participants,
  );
}
