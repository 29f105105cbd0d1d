import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// The pod this key opens, and the key's own id.
const me = await inbox.get("/v0/auth/me", {});

console.log(me.pod_id, me.api_key_id);
