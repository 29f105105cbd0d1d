import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// PATCH changes what you name: metadata merges key by key, and a key
// set to null is removed.
const updated = await inbox.patch("/v0/inboxes/{inbox_id}", {
  params: { path: { inbox_id: "support@pigeonhole.test" } },
  body: { display_name: "Pigeonhole Help", metadata: { tier: 3 } },
});

console.log(updated.display_name, updated.metadata);
