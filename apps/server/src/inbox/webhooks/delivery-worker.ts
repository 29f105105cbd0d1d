import type { Clock } from "../../clock.ts";
import { isoTimestamp } from "../../clock.ts";
import type { ServerLogger } from "../../logger.ts";
import type { Instruments } from "../../metrics/instruments.ts";
import { NO_INSTRUMENTS } from "../../metrics/instruments.ts";
import { DEFAULT_CLAIM_LEASE_MS, DEFAULT_WEBHOOK_CLAIM_MS } from "../../options/defaults.ts";
import type { ClaimedDelivery, DeliveryOutbox, DeliveryState } from "../../storage/inbox/delivery-outbox.ts";
import { deliveryGroup } from "../../storage/inbox/delivery-outbox.ts";
import { ClaimLoop } from "../../work-queue/claim-loop.ts";
import type { DeliverAttempt } from "./attempt-delivery.ts";
import { postDeliveryAttempt } from "./attempt-delivery.ts";

/** Deliveries of one pod an instance attempts at once unless `DeliveryWorkerOptions.concurrencyPerPod` says otherwise. */
export const DEFAULT_DELIVERIES_PER_POD = 8;

export interface DeliveryWorkerOptions {
  outbox: DeliveryOutbox;
  /** This instance's name on the deliveries it claims. */
  instanceId: string;
  /**
   * Whether this is the only instance on the database (the embedded one): on start it takes over every claim and
   * makes every pending delivery due at once, since no other instance can be working on them.
   */
  soleInstance: boolean;
  clock: Clock;
  /** Real time, by which claims hold (see `ClaimLoopOptions.claimClock`). Default `clock`. */
  claimClock?: Clock;
  logger: ServerLogger;
  /** Delay before each retry: the n-th failed attempt waits `retryDelaysMs[n - 1]`; after the last, it has failed. */
  retryDelaysMs: readonly number[];
  allowPrivateDestinations: boolean;
  /** How long a receiver has to answer. Default 15 s, or half the claim when that is shorter. */
  attemptTimeoutMs?: number;
  /** How often the outbox is checked when nothing wakes the worker. Default 500 ms. */
  pollIntervalMs?: number;
  /** Deliveries attempted at the same time. Default 32: an attempt mostly waits on its receiver. */
  concurrency?: number;
  /**
   * Deliveries of one pod attempted at the same time at most (on this instance). Default
   * {@link DEFAULT_DELIVERIES_PER_POD}: a pod whose receivers hang holds at most this many slots, and every other
   * pod's deliveries go meanwhile.
   */
  concurrencyPerPod?: number;
  /**
   * The longest this instance holds a delivery for one attempt (its claim is no longer renewed after that); it must
   * exceed the attempt timeout. Default {@link DEFAULT_WEBHOOK_CLAIM_MS}.
   */
  claimMs?: number;
  /**
   * How long a claim holds unless renewed; renewed every third of it while the attempt runs, so that if this instance
   * stops without handing its claims back (a crash), other instances take its deliveries within this long. Default
   * {@link DEFAULT_CLAIM_LEASE_MS}, at most `claimMs`.
   */
  leaseMs?: number;
  /** Makes one attempt and tells its outcome. Default: a signed POST to the webhook's URL. */
  deliver?: DeliverAttempt;
  /** Counts the deliveries claimed and how each attempt ended. Default: nothing is counted. */
  instruments?: Instruments;
}

/**
 * Delivers webhook events from the outbox table: at least once, in the background, retried with the configured
 * backoff. The outbox is written in the same transaction as the event, so nothing is lost when the process stops.
 * Every instance on the database runs a worker; each delivery is claimed by one instance at a time, on a lease it
 * renews while the attempt runs, so a delivery is attempted by one instance at once and taken over within a lease
 * when that instance dies. Claims go round the pods,
 * and each pod has a share of the slots, so that one pod's hanging receivers never hold up another pod's deliveries.
 */
export class WebhookDeliveryWorker {
  readonly #options: Required<DeliveryWorkerOptions>;
  readonly #loop: ClaimLoop<ClaimedDelivery>;
  readonly #aborts = new Set<AbortController>();

  constructor(options: DeliveryWorkerOptions) {
    const claimMs = options.claimMs ?? DEFAULT_WEBHOOK_CLAIM_MS;
    // An attempt ends well within the longest claim, so its claim is renewed for as long as it runs.
    const attemptTimeoutMs = options.attemptTimeoutMs ?? Math.min(15_000, Math.floor(claimMs / 2));
    if (claimMs <= attemptTimeoutMs) {
      throw new Error("A delivery claim must last longer than a delivery attempt.");
    }
    if (options.concurrencyPerPod !== undefined && options.concurrencyPerPod < 1) {
      throw new Error("A pod's share of the delivery slots must be at least one.");
    }
    this.#options = {
      pollIntervalMs: 500,
      concurrency: 32,
      concurrencyPerPod: DEFAULT_DELIVERIES_PER_POD,
      deliver: postDeliveryAttempt,
      claimClock: options.clock,
      leaseMs: DEFAULT_CLAIM_LEASE_MS,
      ...options,
      instruments: options.instruments ?? NO_INSTRUMENTS,
      claimMs,
      attemptTimeoutMs,
    };
    this.#loop = new ClaimLoop({
      ...this.#options,
      queue: this.#options.outbox,
      queueName: "webhook_deliveries",
      // A delivery whose outcome could not be recorded is attempted again, which at-least-once allows.
      describeClaim: (delivery) => ({ event_id: delivery.eventId }),
      meter: this.#options.instruments.workQueue,
      share: { perGroup: this.#options.concurrencyPerPod, groupOf: deliveryGroup },
      attempt: (delivery) => this.#attempt(delivery),
    });
  }

  /** Takes over every claim first when this is the sole instance, and makes every pending delivery due at once. */
  start(): Promise<void> {
    return this.#loop.start();
  }

  /** Looks at the outbox now (called after a transaction that enqueued deliveries). */
  wake(): void {
    this.#loop.wake();
  }

  /**
   * Stops scheduling and abandons attempts in flight, then hands this instance's claims back: the deliveries stay
   * pending, and other instances (or this one after a restart) deliver them at once.
   */
  stop(): Promise<void> {
    return this.#loop.stop(() => {
      for (const controller of this.#aborts) {
        controller.abort(new Error("The server is shutting down."));
      }
    });
  }

  /** Resolves once nothing is in flight (for tests and orderly shutdown). */
  idle(): Promise<void> {
    return this.#loop.idle();
  }

  #record(delivery: ClaimedDelivery, state: DeliveryState): Promise<void> {
    return this.#options.outbox.recordAttempt(delivery.seq, this.#options.instanceId, state);
  }

  async #attempt(delivery: ClaimedDelivery): Promise<void> {
    const { clock, logger, retryDelaysMs } = this.#options;
    const meter = this.#options.instruments.webhookDeliveries;
    const fields = { event_id: delivery.eventId, webhook_id: delivery.webhookId, attempt: delivery.attempts + 1 };
    const { webhook } = delivery;
    if (!webhook?.enabled) {
      const reason = webhook ? "The webhook is disabled." : "The webhook was deleted.";
      const now = clock.now();
      await this.#record(delivery, {
        status: "cancelled",
        attempts: delivery.attempts,
        nextAttemptAtMs: now,
        lastError: reason,
        lastStatusCode: null,
        finishedAt: isoTimestamp(now),
        updatedAt: isoTimestamp(now),
      });
      meter.finished("cancelled");
      logger.info("webhook delivery cancelled", { ...fields, reason });
      return;
    }

    const controller = new AbortController();
    this.#aborts.add(controller);
    const attemptedAt = clock.now();
    let outcome: Awaited<ReturnType<DeliverAttempt>>;
    try {
      outcome = await this.#options.deliver({
        webhookId: delivery.webhookId,
        url: webhook.url,
        secret: webhook.secret,
        eventId: delivery.eventId,
        eventType: delivery.eventType,
        payload: delivery.payload,
        nowMs: attemptedAt,
        allowPrivate: this.#options.allowPrivateDestinations,
        timeoutMs: this.#options.attemptTimeoutMs,
        signal: controller.signal,
      });
    } finally {
      this.#aborts.delete(controller);
    }
    if (controller.signal.aborted) {
      // Shutting down: the delivery stays pending, untouched, and is attempted again after a restart.
      return;
    }

    const attempts = delivery.attempts + 1;
    const now = clock.now();
    const attempt = {
      attemptedAt: isoTimestamp(attemptedAt),
      statusCode: outcome.statusCode,
      error: outcome.error,
      latencyMs: outcome.latencyMs,
    };
    if (outcome.error === null) {
      await this.#record(delivery, {
        status: "delivered",
        attempts,
        nextAttemptAtMs: now,
        lastError: null,
        lastStatusCode: outcome.statusCode,
        finishedAt: isoTimestamp(now),
        updatedAt: isoTimestamp(now),
        attempt,
      });
      meter.finished("delivered");
      logger.info("webhook delivered", { ...fields, status: outcome.statusCode, latency_ms: outcome.latencyMs });
      return;
    }
    const delay = retryDelaysMs[attempts - 1];
    await this.#record(delivery, {
      status: delay === undefined ? "failed" : "pending",
      attempts,
      nextAttemptAtMs: delay === undefined ? now : now + delay,
      lastError: outcome.error,
      lastStatusCode: outcome.statusCode,
      finishedAt: delay === undefined ? isoTimestamp(now) : null,
      updatedAt: isoTimestamp(now),
      attempt,
    });
    meter.finished(delay === undefined ? "failed" : "retrying");
    logger.warn(delay === undefined ? "webhook delivery failed for good" : "webhook delivery failed; will retry", {
      ...fields,
      status: outcome.statusCode,
      error: outcome.error,
      retry_in_ms: delay ?? null,
    });
  }
}
