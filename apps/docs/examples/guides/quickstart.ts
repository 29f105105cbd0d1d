import { createInboxClient } from "@pigeonhole/inbox";

// The key comes from PIGEONHOLE_INBOX_API_KEY; the address from
// PIGEONHOLE_INBOX_BASE_URL, else the local server (127.0.0.1:4010).
const inbox = createInboxClient();

// Two inboxes on the server's domain; `client_id` makes a second run
// return the same ones.
const alice = await inbox.post("/v0/inboxes", {
  body: { username: "alice", client_id: "quickstart-alice" },
});
const bob = await inbox.post("/v0/inboxes", {
  body: { username: "bob", client_id: "quickstart-bob" },
});

// Mail between inboxes of the same service is delivered: Bob receives a
// copy labelled "received" and "unread".
const sent = await inbox.post("/v0/inboxes/{inbox_id}/messages", {
  params: { path: { inbox_id: alice.inbox_id } },
  body: {
    to: bob.inbox_id,
    subject: "Hello from the quickstart",
    text: "It works!",
  },
});
console.log(`sent ${sent.message_id}`);

const received = await inbox.get("/v0/inboxes/{inbox_id}/messages", {
  params: { path: { inbox_id: bob.inbox_id }, query: { limit: 5 } },
});
for (const message of received.messages) {
  console.log(
    `${bob.inbox_id} has "${message.subject}" from ${message.from}`,
  );
}
