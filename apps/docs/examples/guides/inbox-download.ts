import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();
const inbox_id = "support@pigeonhole.test";

const {
  messages: [order],
} = await inbox.get("/v0/inboxes/{inbox_id}/messages", {
  params: {
    path: { inbox_id },
    query: { labels: ["orders", "received"], limit: 1 },
  },
});
if (order === undefined) {
  throw new Error(`${inbox_id} has received no order`);
}
const { message_id } = order;

// Each attachment as bytes, exactly as sent.
const folder = await mkdtemp(join(tmpdir(), "order-"));
for (const { attachment_id, filename } of order.attachments) {
  const bytes = await inbox.get(
    "/v0/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}",
    {
      params: { path: { inbox_id, message_id, attachment_id } },
      parseAs: "arrayBuffer",
    },
  );
  // The sender chose the name: keep only its last part, so that it
  // cannot point into another folder.
  const file = join(folder, basename(filename));
  await writeFile(file, new Uint8Array(bytes));
  console.log(filename, await readFile(file, "utf8"));
}

// The message's source, as a mail client would see it.
const source = await inbox.get(
  "/v0/inboxes/{inbox_id}/messages/{message_id}/raw",
  { params: { path: { inbox_id, message_id } }, parseAs: "text" },
);
for (const line of source.split("\r\n")) {
  if (/^(From|Subject):/.test(line)) {
    console.log(line);
  }
}
