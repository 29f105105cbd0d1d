import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();
const inboxId = "support@pigeonhole.test";

// An address outside this service: the mail goes out through the
// server's relay, or is kept unsent (`captured`) when it has none.
const sent = await inbox.post("/v0/inboxes/{inbox_id}/messages", {
  params: { path: { inbox_id: inboxId } },
  body: {
    to: "grace@example.com",
    subject: "Your order 1043",
    text: "Thank you, your envelopes ship on Monday.",
  },
});

// One entry per recipient of to, cc and bcc: where its delivery stands.
const message = await inbox.get(
  "/v0/inboxes/{inbox_id}/messages/{message_id}",
  {
    params: {
      path: { inbox_id: inboxId, message_id: sent.message_id },
    },
  },
);
for (const delivery of message.deliveries) {
  console.log(
    `${delivery.address} ${delivery.status} ${delivery.smtp_reply ?? ""}`.trim(),
  );
}
