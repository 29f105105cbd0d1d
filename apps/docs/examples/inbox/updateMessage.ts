import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Mark the message read and flag it. `sent` and `received` are set by
// the service: naming either is a 400 with the code SYSTEM_LABEL.
const message = await inbox.patch(
  "/v0/inboxes/{inbox_id}/messages/{message_id}",
  {
    params: {
      path: {
        inbox_id: "support@pigeonhole.test",
        message_id:
          "<0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a@pigeonhole.test>",
      },
    },
    body: { add_labels: ["important"], remove_labels: ["unread"] },
  },
);

console.log(message.labels); // e.g. ["received", "important"]
