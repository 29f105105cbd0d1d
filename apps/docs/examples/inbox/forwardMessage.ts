import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Send the message on: "Fwd:" subject, the original quoted below the
// note, its attachments carried along.
const forward = await inbox.post(
  "/v0/inboxes/{inbox_id}/messages/{message_id}/forward",
  {
    params: {
      path: {
        inbox_id: "support@pigeonhole.test",
        message_id:
          "<0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a@pigeonhole.test>",
      },
    },
    body: {
      to: "grace@example.com",
      text: "Grace, see the invoice below.",
    },
  },
);

console.log(forward.message_id, forward.thread_id);
