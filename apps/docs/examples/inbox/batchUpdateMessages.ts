import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// One label change for up to 50 messages, all or none.
const batch = await inbox.post(
  "/v0/inboxes/{inbox_id}/messages/batch-update",
  {
    params: { path: { inbox_id: "support@pigeonhole.test" } },
    body: {
      message_ids: [
        "<0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a@pigeonhole.test>",
      ],
      add_labels: ["archived"],
    },
  },
);

for (const update of batch.updates) {
  console.log(update.message_id, update.labels);
}
