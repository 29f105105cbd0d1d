import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Every draft of the inbox, newest first; a scheduled one shows when it
// goes out.
for await (const draft of inbox.paginate(
  "/v0/inboxes/{inbox_id}/drafts",
  {
    params: { path: { inbox_id: "support@pigeonhole.test" } },
  },
)) {
  console.log(
    draft.draft_id,
    draft.subject,
    draft.send_status,
    draft.send_at,
  );
}
