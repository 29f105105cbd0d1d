import { createInboxClient } from "@pigeonhole/inbox";

// The local server's development key; its address is the client's default.
const inbox = createInboxClient({ apiKey: "pigeonhole-inbox-dev" });

// Every path, parameter and field is typed from the API's spec.
const { inbox_id } = await inbox.post("/v0/inboxes", {
  body: { username: "hello", client_id: "home-hello" },
});
const sent = await inbox.post("/v0/inboxes/{inbox_id}/messages", {
  params: { path: { inbox_id } },
  body: { to: inbox_id, subject: "Hello", text: "It works!" },
});
console.log(`${inbox_id} sent ${sent.message_id}`);
