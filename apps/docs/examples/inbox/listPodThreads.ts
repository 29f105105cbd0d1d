import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// The conversations of every inbox of your key's pod, newest first.
for await (const thread of inbox.paginate("/v0/threads", {})) {
  console.log(thread.inbox_id, thread.subject);
}
