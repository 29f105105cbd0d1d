import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Labels every message of the conversation at once.
const thread = await inbox.patch(
  "/v0/inboxes/{inbox_id}/threads/{thread_id}",
  {
    params: {
      path: {
        inbox_id: "support@pigeonhole.test",
        thread_id: "thd_7Hq2mZ4kP9xR3vLc",
      },
    },
    body: { add_labels: ["important"] },
  },
);

console.log(thread.labels);
