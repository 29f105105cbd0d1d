import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

for await (const entry of inbox.paginate(
  "/v0/inboxes/{inbox_id}/lists/{direction}/{type}",
  {
    params: {
      path: {
        inbox_id: "support@pigeonhole.test",
        direction: "send",
        type: "allow",
      },
    },
  },
)) {
  console.log(entry.entry, entry.entry_type);
}
