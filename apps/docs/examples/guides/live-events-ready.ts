import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();
const events = inbox.events({
  inbox_ids: ["support@pigeonhole.test"],
  event_types: ["message.received"],
});

// Resolves once the service listens: nothing sent from here on is missed.
await events.ready();
await inbox.post("/v0/inboxes/{inbox_id}/messages", {
  params: { path: { inbox_id: "ada@pigeonhole.test" } },
  body: {
    to: "support@pigeonhole.test",
    subject: "Sent right after ready()",
    text: "Hello",
  },
});

for await (const event of events) {
  if (event.event_type === "message.received") {
    console.log(`${event.message.from}: ${event.message.subject}`);
    break;
  }
}
