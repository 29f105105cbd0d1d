import { readFile, writeFile } from "node:fs/promises";
import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();
// Where this worker notes the last event it handled. In production,
// store it with the work the event caused, in one transaction.
const checkpoint = process.env.CHECKPOINT_FILE ?? "last-event-id.txt";

const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => stop.abort());
}

// The first run starts with what happens from now on; every later run
// first hears what it missed while it was down, then goes on live.
const after = await readFile(checkpoint, "utf8").catch(() => undefined);

for await (const event of inbox.events({
  after,
  event_types: ["message.received"],
  signal: stop.signal,
})) {
  if (event.event_type === "message.received") {
    console.log(`${event.event_id} ${event.message.subject}`);
  }
  await writeFile(checkpoint, event.event_id);
}
