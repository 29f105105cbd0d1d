import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Every hosted domain, the default first: inboxes live in these only.
for await (const { domain, records } of inbox.paginate(
  "/v0/domains",
  {},
)) {
  console.log(domain, `${records.length} DNS records to publish`);
}
