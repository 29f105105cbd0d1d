import { writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();
const inbox_id = "support@pigeonhole.test";
const message_id =
  "<0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a@pigeonhole.test>";

// The message lists its attachments; each id downloads one file.
const message = await inbox.get(
  "/v0/inboxes/{inbox_id}/messages/{message_id}",
  { params: { path: { inbox_id, message_id } } },
);

for (const { attachment_id, filename } of message.attachments) {
  // The answer is the file's bytes, not JSON: ask for an ArrayBuffer
  // (or leave `parseAs` out for a Blob, or "stream" for a stream).
  const bytes = await inbox.get(
    "/v0/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}",
    {
      params: { path: { inbox_id, message_id, attachment_id } },
      parseAs: "arrayBuffer",
    },
  );
  // The sender chose the name: keep only its last part, so that it
  // cannot point into another folder.
  await writeFile(basename(filename), new Uint8Array(bytes));
  console.log(`saved ${filename} (${bytes.byteLength} bytes)`);
}
