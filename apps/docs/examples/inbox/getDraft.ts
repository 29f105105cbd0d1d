import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

const draft = await inbox.get(
  "/v0/inboxes/{inbox_id}/drafts/{draft_id}",
  {
    params: {
      path: {
        inbox_id: "support@pigeonhole.test",
        draft_id: "drf_3Kq8Zt1Vb6Xn2Lm4",
      },
    },
  },
);

console.log(draft.subject, draft.text, draft.send_status);
