import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Deletes this inbox's copy for good; its thread follows (or goes, when
// it was the last message).
await inbox.delete("/v0/inboxes/{inbox_id}/messages/{message_id}", {
  params: {
    path: {
      inbox_id: "support@pigeonhole.test",
      message_id:
        "<0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a@pigeonhole.test>",
    },
  },
});
