import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();
const inbox_id = "support@pigeonhole.test";

// Every message whose subject, addresses, text or html holds a word
// starting with each word of `q`, best match first: the subject counts
// most, then the sender and recipients, then the body.
for await (const message of inbox.paginate(
  "/v0/inboxes/{inbox_id}/messages/search",
  { params: { path: { inbox_id }, query: { q: "november invoice" } } },
)) {
  console.log(message.subject, message.from, message.timestamp);
}

// Only what arrived in November.
const november = await inbox.get(
  "/v0/inboxes/{inbox_id}/messages/search",
  {
    params: {
      path: { inbox_id },
      query: {
        q: "invoice",
        after: "2026-11-01T00:00:00.000Z",
        before: "2026-12-01T00:00:00.000Z",
      },
    },
  },
);
console.log(`${november.count} on the first page`);
