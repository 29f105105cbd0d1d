import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// The entry is named by itself, without regard to case; one the list does
// not hold is a 404.
const entry = await inbox.get("/v0/lists/{direction}/{type}/{entry}", {
  params: {
    path: {
      direction: "receive",
      type: "block",
      entry: "spam@example.com",
    },
  },
});

console.log(entry.entry, entry.created_at);
