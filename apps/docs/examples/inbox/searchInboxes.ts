import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Inboxes whose address or display name has a word starting with "sup":
// support@pigeonhole.test, not report@pigeonhole.test.
const found = await inbox.get("/v0/inboxes/search", {
  params: { query: { q: "sup" } },
});
for (const match of found.inboxes) {
  console.log(match.inbox_id, match.display_name);
}
