import { writeFile } from "node:fs/promises";

// A signed download_url needs no API key: anyone holding it gets the
// bytes, for 15 minutes. Plain fetch is all it takes.
const response = await fetch(
  `${process.env.PIGEONHOLE_INBOX_BASE_URL}/v0/downloads/eyJ2IjoxfQ.c2lnbmF0dXJl`,
);
if (!response.ok) {
  throw new Error(
    `The link answered ${response.status}: ask for a fresh one.`,
  );
}
await writeFile(
  "invoice-2026-11.pdf",
  Buffer.from(await response.arrayBuffer()),
);
