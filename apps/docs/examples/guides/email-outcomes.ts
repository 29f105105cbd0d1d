import { createInboxClient } from "@pigeonhole/inbox";

const inbox = createInboxClient();

const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => stop.abort());
}

// What the relay answered for the support inbox's outgoing mail.
for await (const event of inbox.events({
  inbox_ids: ["support@pigeonhole.test"],
  event_types: [
    "message.delivered",
    "message.delayed",
    "message.bounced",
  ],
  signal: stop.signal,
})) {
  switch (event.event_type) {
    case "message.delivered":
      console.log(
        `delivered to ${event.delivery.recipients.join(", ")}`,
      );
      break;
    case "message.delayed":
      for (const { address, status } of event.delay.recipients) {
        console.log(`delayed for ${address}: ${status}`);
      }
      break;
    case "message.bounced":
      for (const { address, status } of event.bounce.recipients) {
        console.log(`bounced for ${address}: ${status}`);
      }
      break;
  }
}
console.log("stopped listening");
