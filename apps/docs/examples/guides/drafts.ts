import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();
const inbox_id = "support@pigeonhole.test";

// A draft without recipients yet: every field is optional.
const draft = await inbox.post("/v0/inboxes/{inbox_id}/drafts", {
  params: { path: { inbox_id } },
  body: {
    subject: "Your November invoice",
    text: "Hi Ada, here it is.",
  },
});

// Finish it: recipients, a file, a label.
const params = { path: { inbox_id, draft_id: draft.draft_id } };
const ready = await inbox.patch(
  "/v0/inboxes/{inbox_id}/drafts/{draft_id}",
  {
    params,
    body: {
      to: ["ada@example.com"],
      add_attachments: [
        { filename: "invoice.txt", content: btoa("total: 42 EUR") },
      ],
      add_labels: ["billing"],
    },
  },
);
console.log(
  ready.to,
  ready.attachments.map((file) => file.filename),
);

// Send it now: the same path as Send Message, then the draft is gone.
const sent = await inbox.post(
  "/v0/inboxes/{inbox_id}/drafts/{draft_id}/send",
  { params },
);
const message = await inbox.get(
  "/v0/inboxes/{inbox_id}/messages/{message_id}",
  { params: { path: { inbox_id, message_id: sent.message_id } } },
);
console.log(message.subject, message.labels);
