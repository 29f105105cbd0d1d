import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Sent now through the same path as Send Message; the draft is gone
// afterwards (Get Draft answers 404).
const sent = await inbox.post(
  "/v0/inboxes/{inbox_id}/drafts/{draft_id}/send",
  {
    params: {
      path: {
        inbox_id: "support@pigeonhole.test",
        draft_id: "drf_3Kq8Zt1Vb6Xn2Lm4",
      },
    },
    body: { add_labels: ["invoices"] },
  },
);

console.log(sent.message_id, sent.thread_id);
