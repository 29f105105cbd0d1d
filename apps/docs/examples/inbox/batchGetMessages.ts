import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Up to 50 messages at once; ids the inbox does not hold are left out.
const batch = await inbox.post(
  "/v0/inboxes/{inbox_id}/messages/batch-get",
  {
    params: { path: { inbox_id: "support@pigeonhole.test" } },
    body: {
      message_ids: [
        "<0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a@pigeonhole.test>",
      ],
    },
  },
);

console.log(batch.count, "of", batch.limit);
