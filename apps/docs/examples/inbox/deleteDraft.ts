import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Answers 204: a scheduled draft deleted is never sent.
await inbox.delete("/v0/inboxes/{inbox_id}/drafts/{draft_id}", {
  params: {
    path: {
      inbox_id: "support@pigeonhole.test",
      draft_id: "drf_3Kq8Zt1Vb6Xn2Lm4",
    },
  },
});
