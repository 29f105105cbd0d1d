import type { AttemptOutcome, DeliverAttempt, DeliveryAttempt } from "../../inbox/webhooks/attempt-delivery.ts";
import type { FaultRegistry } from "./fault-registry.ts";

export interface WebhookFaultOptions {
  /** Sends an attempt for real (the worker's default, a signed POST). */
  deliver: DeliverAttempt;
  /**
   * How long a held delivery waits at most for the webhook's next delivery: it must go before the worker's claim on
   * it runs out, or another instance would attempt it too.
   */
  holdLimitMs: number;
}

/**
 * The delivery worker's `deliver` with webhook faults applied: an attempt a fault matches fails with a status
 * without being sent (`fail`), is sent twice with the same id (`duplicate`), or waits until the next delivery to
 * the same webhook has been sent (`hold`); every other attempt is sent as usual.
 */
export function deliverWithFaults(faults: FaultRegistry, options: WebhookFaultOptions): DeliverAttempt {
  const { deliver, holdLimitMs } = options;
  // Held attempts by webhook, each waiting for the next attempt to that webhook to have been sent.
  const held = new Map<string, Set<() => void>>();
  const sent = (webhookId: string) => {
    const waiting = held.get(webhookId);
    held.delete(webhookId);
    for (const release of waiting ?? []) {
      release();
    }
  };
  const send = async (attempt: DeliveryAttempt): Promise<AttemptOutcome> => {
    const outcome = await deliver(attempt);
    sent(attempt.webhookId);
    return outcome;
  };
  const nextSent = (attempt: DeliveryAttempt) =>
    new Promise<void>((resolve) => {
      const release = () => {
        clearTimeout(timer);
        attempt.signal.removeEventListener("abort", release);
        held.get(attempt.webhookId)?.delete(release);
        resolve();
      };
      const timer = setTimeout(release, holdLimitMs);
      attempt.signal.addEventListener("abort", release);
      const waiting = held.get(attempt.webhookId) ?? new Set();
      waiting.add(release);
      held.set(attempt.webhookId, waiting);
    });

  return async (attempt) => {
    const applied = faults.takeWebhookFault({
      webhookId: attempt.webhookId,
      eventType: attempt.eventType,
      eventId: attempt.eventId,
    });
    if (!applied) {
      return send(attempt);
    }
    const { action, faultId } = applied;
    switch (action.type) {
      case "fail": {
        const status = action.status ?? 503;
        return { statusCode: status, error: `Fault ${faultId}: answered ${status} without sending.`, latencyMs: 0 };
      }
      case "duplicate": {
        const first = await deliver(attempt);
        const second = await deliver(attempt);
        sent(attempt.webhookId);
        // Delivered when either copy was taken.
        return first.error === null ? first : second;
      }
      case "hold":
        await nextSent(attempt);
        return deliver(attempt);
    }
  };
}
