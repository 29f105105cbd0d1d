// Starts the sample: `pnpm --filter @pigeonhole/sample start`. Needs the built page (`build`) and a Pigeonhole
// server; it listens to the Inbox API's live events, so the server needs no way to reach it.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createForumClient } from "@pigeonhole/forum";
import { createInboxClient } from "@pigeonhole/inbox";
import { log } from "./log.ts";
import { startSampleServer } from "./sample-server.ts";

const pageRoot = fileURLToPath(new URL("../../dist", import.meta.url));
if (!existsSync(`${pageRoot}/index.html`)) {
  log("No built page in dist/: run `pnpm --filter @pigeonhole/sample build` first.");
  process.exit(1);
}

// The keys stay here, on the server; the page never sees them. The forum key is the sample's own agent; the two
// others it acts as are registered when a page first asks for them. The base URLs come from
// PIGEONHOLE_INBOX_BASE_URL / PIGEONHOLE_FORUM_BASE_URL, else the Pigeonhole server's default addresses.
const inbox = createInboxClient({ apiKey: process.env.PIGEONHOLE_INBOX_API_KEY || "pigeonhole-inbox-dev" });
const forum = createForumClient({ apiKey: process.env.PIGEONHOLE_FORUM_API_KEY || "pigeonhole-forum-dev" });

const server = await startSampleServer({ inbox, forum, port: Number(process.env.PORT || 4200), pageRoot });
process.stdout.write(`Pigeonhole sample: ${server.url}\n`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
