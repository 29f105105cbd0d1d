import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// AgentMail's path for Send Message: the same body, answer and rules.
const sent = await inbox.post("/v0/inboxes/{inbox_id}/messages/send", {
  params: { path: { inbox_id: "support@pigeonhole.test" } },
  body: {
    to: "ada@example.com",
    subject: "Welcome",
    text: "Hi Ada, welcome aboard.",
  },
});

console.log(sent.message_id, sent.thread_id);
