import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();
const inbox_id = "support@pigeonhole.test";

// The newest order, as labelled in the step before.
const {
  messages: [order],
} = await inbox.get("/v0/inboxes/{inbox_id}/messages", {
  params: {
    path: { inbox_id },
    query: { labels: ["orders"], limit: 1 },
  },
});
if (order === undefined) {
  throw new Error(`${inbox_id} has no message labelled "orders"`);
}

// The service addresses the reply (with `reply_all`, also to the `to`
// and `cc` of the order, never to this inbox), writes "Re: Order 1042"
// and sets In-Reply-To and References.
const reply = await inbox.post(
  "/v0/inboxes/{inbox_id}/messages/{message_id}/reply",
  {
    params: { path: { inbox_id, message_id: order.message_id } },
    body: {
      text: "Thank you: your order ships on Thursday.",
      reply_all: true,
      labels: ["orders"],
    },
  },
);

// The reply joins the order's thread.
const thread = await inbox.get(
  "/v0/inboxes/{inbox_id}/threads/{thread_id}",
  { params: { path: { inbox_id, thread_id: reply.thread_id } } },
);
for (const message of thread.messages) {
  console.log(
    `${message.subject} | to ${[...message.to, ...message.cc].join(", ")}`,
  );
}
