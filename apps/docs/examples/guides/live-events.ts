import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// Ctrl+C (or a stop from your process manager) aborts the signal: the
// loop ends without an error and the socket closes.
const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => stop.abort());
}

for await (const event of inbox.events({
  inbox_ids: ["support@pigeonhole.test"],
  event_types: ["message.received"],
  signal: stop.signal,
})) {
  if (event.event_type === "message.received") {
    const { message } = event;
    console.log(`${message.from}: ${message.subject}`);
  }
}
console.log("stopped listening");
