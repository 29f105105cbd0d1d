import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// In ascending order of entry, across every page.
for await (const entry of inbox.paginate(
  "/v0/lists/{direction}/{type}",
  {
    params: { path: { direction: "receive", type: "block" } },
  },
)) {
  console.log(entry.entry, entry.reason);
}
