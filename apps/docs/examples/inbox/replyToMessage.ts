import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// The service addresses the reply, writes the `Re:` subject and the
// In-Reply-To and References headers: the reply joins the thread.
const reply = await inbox.post(
  "/v0/inboxes/{inbox_id}/messages/{message_id}/reply",
  {
    params: {
      path: {
        inbox_id: "support@pigeonhole.test",
        message_id:
          "<0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a@pigeonhole.test>",
      },
    },
    // Also to the message's other `to` and `cc` addresses.
    body: {
      text: "Thanks, Ada: the invoice is paid.",
      reply_all: true,
    },
  },
);

console.log(reply.message_id, reply.thread_id);
