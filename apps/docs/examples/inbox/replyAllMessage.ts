import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Answer the sender and everyone else on the message, in its thread.
const reply = await inbox.post(
  "/v0/inboxes/{inbox_id}/messages/{message_id}/reply-all",
  {
    params: {
      path: {
        inbox_id: "support@pigeonhole.test",
        message_id:
          "<0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a@pigeonhole.test>",
      },
    },
    body: { text: "Thanks, everyone: the invoice is paid." },
  },
);

console.log(reply.message_id);
