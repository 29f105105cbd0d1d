import { writeFile } from "node:fs/promises";
import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// The token is the last part of a download_url. The link is its own
// permission, for 15 minutes: anyone holding it gets the bytes, with
// no API key (see the curl example). The client follows it as any
// download, and an expired link rejects with NotFoundError.
const bytes = await inbox.get("/v0/downloads/{token}", {
  params: { path: { token: "eyJ2IjoxfQ.c2lnbmF0dXJl" } },
  parseAs: "arrayBuffer",
});
await writeFile("invoice-2026-11.pdf", new Uint8Array(bytes));
