import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// The inbox to work, and a customer who writes to it. Both live on this
// service, so the mail arrives at once. `client_id` makes a second run
// answer the same inboxes.
const support = await inbox.post("/v0/inboxes", {
  body: {
    username: "support",
    display_name: "Pigeonhole Support",
    client_id: "support-inbox-v1",
  },
});
const ada = await inbox.post("/v0/inboxes", {
  body: { username: "ada", client_id: "guide-ada" },
});

await inbox.post("/v0/inboxes/{inbox_id}/messages", {
  params: { path: { inbox_id: ada.inbox_id } },
  body: {
    to: support.inbox_id,
    cc: "accounts@example.com",
    subject: "Order 1042",
    text: "Hello, my order list is attached. Can you ship it this week?",
    attachments: [
      {
        filename: "order-1042.csv",
        content: Buffer.from("item,quantity\nstamps,200\n").toString(
          "base64",
        ),
        content_type: "text/csv",
      },
    ],
  },
});

// Received mail carries `received` and `unread`: list what is new.
for await (const message of inbox.paginate(
  "/v0/inboxes/{inbox_id}/messages",
  {
    params: {
      path: { inbox_id: support.inbox_id },
      query: { labels: ["unread"] },
    },
  },
)) {
  console.log(message.from, message.subject, message.labels);
}
