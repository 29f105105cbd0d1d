import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// A conversation by its id alone, with its messages, oldest first.
const thread = await inbox.get("/v0/threads/{thread_id}", {
  params: { path: { thread_id: "thd_7Hq2mZ4kP9xR3vLc" } },
});

console.log(thread.inbox_id, thread.messages.length);
