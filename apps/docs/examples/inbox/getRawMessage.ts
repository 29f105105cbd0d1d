import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// The RFC 5322 source, headers and MIME body, as a mail client sees
// it. It is not JSON: ask for text (or leave `parseAs` out for a Blob).
const source = await inbox.get(
  "/v0/inboxes/{inbox_id}/messages/{message_id}/raw",
  {
    params: {
      path: {
        inbox_id: "support@pigeonhole.test",
        message_id:
          "<0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a@pigeonhole.test>",
      },
    },
    parseAs: "text",
  },
);

// The headers end at the first empty line; lines end in CRLF.
const headers = source.slice(0, source.indexOf("\r\n\r\n"));
console.log(headers);
