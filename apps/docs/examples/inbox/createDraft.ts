import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Saved now, sent by the server at `send_at`, once. Without `send_at`
// the draft waits for Send Draft.
const draft = await inbox.post("/v0/inboxes/{inbox_id}/drafts", {
  params: { path: { inbox_id: "support@pigeonhole.test" } },
  body: {
    to: ["ada@example.com"],
    subject: "Your November invoice",
    text: "Hi Ada,\n\nyour November invoice is attached.",
    send_at: "2027-06-01T08:00:00.000Z",
  },
});

console.log(draft.draft_id, draft.send_status, draft.send_at);
