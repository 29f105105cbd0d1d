import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

const thread = await inbox.get(
  "/v0/inboxes/{inbox_id}/threads/{thread_id}",
  {
    params: {
      path: {
        inbox_id: "support@pigeonhole.test",
        thread_id: "thd_7Hq2mZ4kP9xR3vLc",
      },
    },
  },
);

// The whole conversation, oldest first.
for (const message of thread.messages) {
  console.log(message.timestamp, message.from, message.text);
}
