import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Answers 204. With its send allow list empty again, the inbox sends to
// every recipient its block lists do not refuse.
await inbox.delete(
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
