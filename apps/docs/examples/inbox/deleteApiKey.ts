import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Answers 204; the key is refused from the next request on.
await inbox.delete("/v0/api-keys/{api_key_id}", {
  params: { path: { api_key_id: "key_3f9a0c2e7b1d4a58" } },
});
