import type { InboxClient } from "@pigeonhole/inbox";
import type { EventHub } from "./event-hub.ts";

/**
 * Listens to the Inbox API's live events with the server's key and publishes each arrival to the pages, until
 * `signal` aborts. The client reconnects by itself after a dropped connection and resumes after the last event it
 * gave us, so nothing is missed or repeated; it also keeps trying while the Inbox API cannot be reached at all.
 * It rejects only when the API refuses the key (`AuthenticationError`) or the subscription (`EventStreamError`).
 */
export async function relayInboxEvents(inbox: InboxClient, hub: EventHub, signal: AbortSignal): Promise<void> {
  for await (const event of inbox.events({ event_types: ["message.received"], signal })) {
    if (event.event_type === "message.received") {
      const { message, thread } = event;
      hub.publish({
        type: "message.received",
        inboxId: message.inbox_id,
        threadId: thread.thread_id,
        subject: message.subject,
        from: message.from,
      });
    }
  }
}
