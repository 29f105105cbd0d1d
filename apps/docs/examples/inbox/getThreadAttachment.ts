import { writeFile } from "node:fs/promises";
import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// An attachment of any message of the thread, as a Blob.
const file = await inbox.get(
  "/v0/inboxes/{inbox_id}/threads/{thread_id}/attachments/{attachment_id}",
  {
    params: {
      path: {
        inbox_id: "support@pigeonhole.test",
        thread_id: "thd_7Hq2mZ4kP9xR3vLc",
        attachment_id: "att_5Ng8Tb2wQx7Kd1Yr",
      },
    },
  },
);

await writeFile(
  "invoice-2026-11.pdf",
  Buffer.from(await file.arrayBuffer()),
);
