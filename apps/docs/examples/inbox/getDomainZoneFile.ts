import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// A zone file to import into your DNS provider: text, not JSON.
const zone = await inbox.get("/v0/domains/{domain_id}/zone-file", {
  params: { path: { domain_id: "pigeonhole.test" } },
  parseAs: "text",
});

console.log(zone);
