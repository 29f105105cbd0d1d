import type { NewDelivery } from "../storage/inbox/delivery-outbox.ts";
import type { NewEvent } from "../storage/inbox/event-log.ts";
import type { SendTransaction, WebhookSubscription } from "../storage/inbox/send-store.ts";

/** Whether a webhook takes events of this type about this inbox. */
const subscribesTo = (webhook: WebhookSubscription, eventType: string, inboxId: string): boolean =>
  (webhook.eventTypes === null || webhook.eventTypes.includes(eventType)) &&
  (webhook.inboxIds === null || webhook.inboxIds.includes(inboxId));

/**
 * Collects the events a transaction raises: each goes to the event log (the live stream reads it there) and to the
 * outbox of every webhook subscribed to it, written by {@link EventRecorder.store} in the same transaction.
 */
export class EventRecorder {
  readonly #tx: SendTransaction;
  readonly #events: NewEvent[] = [];
  readonly #deliveries: NewDelivery[] = [];
  // A pod's webhooks are read once per transaction, however many of its events it raises.
  readonly #webhooksOfPod = new Map<string, WebhookSubscription[]>();

  constructor(tx: SendTransaction) {
    this.#tx = tx;
  }

  async record(podId: string, inboxId: string, event: { event_type: string; event_id: string }): Promise<void> {
    const payload = JSON.stringify(event);
    this.#events.push({ podId, inboxId, eventId: event.event_id, eventType: event.event_type, payload });
    for (const webhook of await this.#webhooksOf(podId)) {
      if (subscribesTo(webhook, event.event_type, inboxId)) {
        const { webhookId } = webhook;
        this.#deliveries.push({ webhookId, inboxId, eventId: event.event_id, eventType: event.event_type, payload });
      }
    }
  }

  async store(at: string, nowMs: number): Promise<void> {
    await this.#tx.enqueueDeliveries(this.#deliveries, at, nowMs);
    await this.#tx.appendEvents(this.#events, nowMs);
  }

  async #webhooksOf(podId: string): Promise<WebhookSubscription[]> {
    let webhooks = this.#webhooksOfPod.get(podId);
    if (!webhooks) {
      webhooks = await this.#tx.findEnabledWebhooks(podId);
      this.#webhooksOfPod.set(podId, webhooks);
    }
    return webhooks;
  }
}
