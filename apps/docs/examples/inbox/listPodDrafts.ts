import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// The drafts of every inbox of this API key, newest first.
for await (const draft of inbox.paginate("/v0/drafts", {})) {
  console.log(draft.inbox_id, draft.draft_id, draft.subject);
}
