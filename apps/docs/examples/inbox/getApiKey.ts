import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

const key = await inbox.get("/v0/api-keys/{api_key_id}", {
  params: { path: { api_key_id: "key_3f9a0c2e7b1d4a58" } },
});

console.log(key.name, key.created_at);
