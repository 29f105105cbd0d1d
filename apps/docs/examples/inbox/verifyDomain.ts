import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// A hosted domain is verified from the start: this answers 204.
await inbox.post("/v0/domains/{domain_id}/verify", {
  params: { path: { domain_id: "pigeonhole.test" } },
});
