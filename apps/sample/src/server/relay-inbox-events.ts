import type { InboxClient } from "@pigeonhole/inbox";
import type { DeliveryOutcome } from "../shared/wire.ts";
import type { EventHub } from "./event-hub.ts";

/**
 * Listens to the Inbox API's live events with the server's key and publishes to the pages each arrival, and each
 * answer of the relay about mail sent to outside addresses, until `signal` aborts. The client reconnects by itself
 * after a dropped connection and resumes after the last event it gave us, so nothing is missed or repeated; it also
 * keeps trying while the Inbox API cannot be reached at all. It rejects only when the API refuses the key
 * (`AuthenticationError`) or the subscription (`EventStreamError`).
 */
export async function relayInboxEvents(inbox: InboxClient, hub: EventHub, signal: AbortSignal): Promise<void> {
  const delivery = (ids: { inbox_id: string; thread_id: string }, outcome: DeliveryOutcome) =>
    hub.publish({ type: "message.delivery", inboxId: ids.inbox_id, threadId: ids.thread_id, outcome });
  for await (const event of inbox.events({
    event_types: ["message.received", "message.delivered", "message.delayed", "message.bounced"],
    signal,
  })) {
    switch (event.event_type) {
      case "message.received": {
        const { message, thread } = event;
        hub.publish({
          type: "message.received",
          inboxId: message.inbox_id,
          threadId: thread.thread_id,
          subject: message.subject,
          from: message.from,
        });
        break;
      }
      case "message.delivered":
        delivery(event.delivery, "delivered");
        break;
      case "message.delayed":
        delivery(event.delay, "delayed");
        break;
      case "message.bounced":
        delivery(event.bounce, "bounced");
        break;
    }
  }
}
