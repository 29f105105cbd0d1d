import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

const entry = await inbox.get(
  "/v0/inboxes/{inbox_id}/lists/{direction}/{type}/{entry}",
  {
    params: {
      path: {
        inbox_id: "support@pigeonhole.test",
        direction: "send",
        type: "allow",
        entry: "partner.example",
      },
    },
  },
);

console.log(entry.entry, entry.created_at);
