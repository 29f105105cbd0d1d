import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Another key for the same pod. The key is in this answer only: store
// it now; the server keeps just its hash.
const created = await inbox.post("/v0/api-keys", {
  body: { name: "ci-runner" },
});

console.log(created.api_key_id, created.prefix);
