import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

const sent = await inbox.post("/v0/inboxes/{inbox_id}/messages", {
  params: { path: { inbox_id: "support@pigeonhole.test" } },
  body: {
    to: "ada@example.com",
    subject: "Your November invoice",
    text: "Hi Ada,\n\nyour November invoice is attached.",
    labels: ["billing"],
    attachments: [
      {
        filename: "invoice-2026-11.pdf",
        content: "JVBERi0xLjQK",
        content_type: "application/pdf",
      },
    ],
  },
  // Optional: the client mints one key per send and reuses it on every
  // retry. Pass your own to dedupe across restarts of your program,
  // e.g. the id of the order this message is about.
  idempotencyKey: "invoice-2026-11-ada",
});

console.log(sent.message_id, sent.thread_id);
