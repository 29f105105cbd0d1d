import { createInboxClient } from "@pigeonhole/inbox";

// Reads PIGEONHOLE_INBOX_API_KEY and PIGEONHOLE_INBOX_BASE_URL from the
// environment.
const inbox = createInboxClient();

// With a `client_id`, running this again answers the same inbox instead
// of creating a second one.
const support = await inbox.post("/v0/inboxes", {
  body: {
    username: "support",
    display_name: "Pigeonhole Support",
    client_id: "support-inbox-v1",
  },
});

console.log(support.inbox_id); // "support@pigeonhole.test"
