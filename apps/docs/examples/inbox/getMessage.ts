import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Message ids contain `<`, `@` and `>`: pass them unchanged, the client
// encodes them in the path.
const message = await inbox.get(
  "/v0/inboxes/{inbox_id}/messages/{message_id}",
  {
    params: {
      path: {
        inbox_id: "support@pigeonhole.test",
        message_id:
          "<0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a@pigeonhole.test>",
      },
    },
  },
);

console.log(message.subject);
console.log(message.text ?? message.html);
for (const attachment of message.attachments) {
  console.log(
    attachment.filename,
    attachment.content_type,
    attachment.size,
  );
}
