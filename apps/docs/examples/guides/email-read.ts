import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();
const inboxId = "support@pigeonhole.test";

// Mail from outside arrives as mail from another inbox does: labelled
// `received` and `unread`, newest first.
const { messages } = await inbox.get(
  "/v0/inboxes/{inbox_id}/messages",
  {
    params: {
      path: { inbox_id: inboxId },
      query: { labels: ["unread"], limit: 1 },
    },
  },
);
const newest = messages[0];
if (newest === undefined) {
  throw new Error("no unread mail yet");
}

const message = await inbox.get(
  "/v0/inboxes/{inbox_id}/messages/{message_id}",
  {
    params: {
      path: { inbox_id: inboxId, message_id: newest.message_id },
    },
  },
);
console.log(`${message.from}: ${message.subject}`);
console.log(message.text?.trim());
for (const file of message.attachments) {
  console.log(`${file.filename} ${file.content_type} ${file.size}`);
}

// The source, exactly as the sending server handed it over.
const source = await inbox.get(
  "/v0/inboxes/{inbox_id}/messages/{message_id}/raw",
  {
    params: {
      path: { inbox_id: inboxId, message_id: message.message_id },
    },
    parseAs: "text",
  },
);
console.log(
  source.split("\r\n").find((line) => line.startsWith("From:")),
);
