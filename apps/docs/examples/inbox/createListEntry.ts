import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Every inbox of the API key's pod stops receiving mail from this sender.
const entry = await inbox.post("/v0/lists/{direction}/{type}", {
  params: { path: { direction: "receive", type: "block" } },
  body: {
    entry: "spam@example.com",
    reason: "Sends unsolicited offers",
  },
});

console.log(entry.entry, entry.entry_type, entry.list_type);
