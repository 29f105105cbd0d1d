import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Whichever inbox of this API key holds it.
const draft = await inbox.get("/v0/drafts/{draft_id}", {
  params: { path: { draft_id: "drf_3Kq8Zt1Vb6Xn2Lm4" } },
});

console.log(draft.inbox_id, draft.subject);
