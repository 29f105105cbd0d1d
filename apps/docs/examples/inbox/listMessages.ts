import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();
const inbox_id = "support@pigeonhole.test";

// Every message of the inbox, newest first, without bodies (fetch one
// with Get Message for `text` and `html`).
for await (const message of inbox.paginate(
  "/v0/inboxes/{inbox_id}/messages",
  { params: { path: { inbox_id } } },
)) {
  console.log(
    message.timestamp,
    message.from,
    message.subject,
    message.labels,
  );
}

// Or a single page of 10.
const page = await inbox.get("/v0/inboxes/{inbox_id}/messages", {
  params: { path: { inbox_id }, query: { limit: 10 } },
});
console.log(page.messages.length, page.next_page_token);

// Only what is new: a message must carry every label given.
const unread = await inbox.get("/v0/inboxes/{inbox_id}/messages", {
  params: {
    path: { inbox_id },
    query: { labels: ["received", "unread"] },
  },
});
console.log(`${unread.count} unread on the first page`);
