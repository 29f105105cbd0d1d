import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// With an entry in its send allow list, the inbox sends only to addresses
// of partner.example and its subdomains; any other recipient is a 400
// RECIPIENT_BLOCKED.
const entry = await inbox.post(
  "/v0/inboxes/{inbox_id}/lists/{direction}/{type}",
  {
    params: {
      path: {
        inbox_id: "support@pigeonhole.test",
        direction: "send",
        type: "allow",
      },
    },
    body: { entry: "partner.example" },
  },
);

console.log(entry.inbox_id, entry.entry, entry.entry_type);
