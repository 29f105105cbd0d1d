import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// The same search over every inbox of the API key's pod at once.
for await (const thread of inbox.paginate("/v0/threads/search", {
  params: { query: { q: "invoice" } },
})) {
  console.log(thread.inbox_id, thread.subject);
}
