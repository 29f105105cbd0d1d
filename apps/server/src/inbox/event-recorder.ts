import type { NewDelivery } from "../storage/inbox/delivery-outbox.ts";
import type { NewEvent } from "../storage/inbox/event-log.ts";
import type { SendTransaction } from "../storage/inbox/send-store.ts";

/**
 * Collects the events a transaction raises: each goes to the event log (the live stream reads it there) and to the
 * outbox of every webhook subscribed to it, written by {@link EventRecorder.store} in the same transaction.
 */
export class EventRecorder {
  readonly #tx: SendTransaction;
  readonly #events: NewEvent[] = [];
  readonly #deliveries: NewDelivery[] = [];

  constructor(tx: SendTransaction) {
    this.#tx = tx;
  }

  async record(podId: string, inboxId: string, event: { event_type: string; event_id: string }): Promise<void> {
    const payload = JSON.stringify(event);
    this.#events.push({ podId, inboxId, eventId: event.event_id, eventType: event.event_type, payload });
    for (const webhookId of await this.#tx.findSubscribedWebhooks(podId, event.event_type, inboxId)) {
      this.#deliveries.push({ webhookId, inboxId, eventId: event.event_id, eventType: event.event_type, payload });
    }
  }

  async store(at: string, nowMs: number): Promise<void> {
    await this.#tx.enqueueDeliveries(this.#deliveries, at, nowMs);
    await this.#tx.appendEvents(this.#events, nowMs);
  }

  /** Webhook deliveries enqueued: the worker is woken once the transaction commits. */
  get deliveryCount(): number {
    return this.#deliveries.length;
  }

  /** The pods that got events: their live streams are woken once the transaction commits. */
  get pods(): string[] {
    return [...new Set(this.#events.map((event) => event.podId))];
  }
}
