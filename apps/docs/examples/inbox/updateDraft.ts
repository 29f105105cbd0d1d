import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Fields left out stay as they are; `null` clears one.
const draft = await inbox.patch(
  "/v0/inboxes/{inbox_id}/drafts/{draft_id}",
  {
    params: {
      path: {
        inbox_id: "support@pigeonhole.test",
        draft_id: "drf_3Kq8Zt1Vb6Xn2Lm4",
      },
    },
    body: {
      cc: ["billing@example.com"],
      add_attachments: [
        {
          filename: "invoice-2026-11.pdf",
          content: "JVBERi0xLjQK",
          content_type: "application/pdf",
        },
      ],
      add_labels: ["billing"],
    },
  },
);

for (const attachment of draft.attachments) {
  console.log(attachment.attachment_id, attachment.filename);
}
