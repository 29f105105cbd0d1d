import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();
const inbox_id = "support@pigeonhole.test";

// Read every unread message, then mark it read by removing `unread`.
for await (const item of inbox.paginate(
  "/v0/inboxes/{inbox_id}/messages",
  { params: { path: { inbox_id }, query: { labels: ["unread"] } } },
)) {
  const path = { inbox_id, message_id: item.message_id };
  // Lists leave the bodies out; Get Message has them.
  const message = await inbox.get(
    "/v0/inboxes/{inbox_id}/messages/{message_id}",
    { params: { path } },
  );
  console.log(`${message.from}: ${message.subject}`);
  console.log(message.text);

  const read = await inbox.patch(
    "/v0/inboxes/{inbox_id}/messages/{message_id}",
    { params: { path }, body: { remove_labels: ["unread"] } },
  );
  console.log(read.labels);
}
