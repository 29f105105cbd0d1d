import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Answers 204: the next message from this sender is received again.
await inbox.delete("/v0/lists/{direction}/{type}/{entry}", {
  params: {
    path: {
      direction: "receive",
      type: "block",
      entry: "spam@example.com",
    },
  },
});
