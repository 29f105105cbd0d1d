import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// The pod's keys, newest first, never the keys themselves.
for await (const key of inbox.paginate("/v0/api-keys", {})) {
  console.log(key.api_key_id, key.prefix, key.name);
}
