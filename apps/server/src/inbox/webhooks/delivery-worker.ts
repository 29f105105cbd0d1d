import type { Clock } from "../../clock.ts";
import { isoTimestamp } from "../../clock.ts";
import type { ServerLogger } from "../../logger.ts";
import type { DueDelivery } from "../../storage/inbox/delivery-outbox.ts";
import type { InboxRepository } from "../../storage/inbox/inbox-repository.ts";
import { checkDestination } from "./destination-policy.ts";
import { deliveryHeaders } from "./signing.ts";

export interface DeliveryWorkerOptions {
  repository: InboxRepository;
  clock: Clock;
  logger: ServerLogger;
  /** Delay before each retry: the n-th failed attempt waits `retryDelaysMs[n - 1]`; after the last, it has failed. */
  retryDelaysMs: readonly number[];
  allowPrivateDestinations: boolean;
  /** How long a receiver has to answer. Default 15 s. */
  attemptTimeoutMs?: number;
  /** How often the outbox is checked when nothing wakes the worker. Default 500 ms. */
  pollIntervalMs?: number;
  /** Deliveries attempted at the same time. Default 8. */
  concurrency?: number;
}

const describeError = (error: unknown): string => {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
};

/**
 * Delivers webhook events from the outbox table: at least once, in the background, retried with the configured
 * backoff. The outbox is written in the same transaction as the event, so nothing is lost when the process stops;
 * on start, every pending delivery is due at once.
 */
export class WebhookDeliveryWorker {
  readonly #options: Required<DeliveryWorkerOptions>;
  readonly #inFlight = new Map<number, Promise<void>>();
  readonly #aborts = new Set<AbortController>();
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #passQueued = false;
  #pass: Promise<void> | undefined;

  constructor(options: DeliveryWorkerOptions) {
    this.#options = { attemptTimeoutMs: 15_000, pollIntervalMs: 500, concurrency: 8, ...options };
  }

  async start(): Promise<void> {
    this.#running = true;
    await this.#options.repository.makePendingDue(this.#options.clock.now());
    this.wake();
  }

  /** Looks at the outbox now (called after a transaction that enqueued deliveries). */
  wake(): void {
    if (!this.#running) {
      return;
    }
    if (this.#pass) {
      this.#passQueued = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#pass = this.#runPass().then((nextDueAt) => {
      this.#pass = undefined;
      if (this.#passQueued) {
        this.#passQueued = false;
        this.wake();
      } else {
        this.#schedule(nextDueAt);
      }
    });
  }

  /** Stops scheduling and abandons attempts in flight; they stay pending and are delivered after a restart. */
  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    for (const controller of this.#aborts) {
      controller.abort(new Error("The server is shutting down."));
    }
    await this.#pass;
    await Promise.allSettled(this.#inFlight.values());
  }

  /** Resolves once nothing is in flight (for tests and orderly shutdown). */
  async idle(): Promise<void> {
    while (this.#pass || this.#inFlight.size > 0) {
      await this.#pass;
      await Promise.allSettled(this.#inFlight.values());
    }
  }

  /** Sleeps until the next delivery is due, but at most the poll interval (other processes may enqueue too). */
  #schedule(nextDueAt: number | null) {
    if (!this.#running) {
      return;
    }
    const untilDue = nextDueAt === null ? Number.POSITIVE_INFINITY : nextDueAt - this.#options.clock.now();
    this.#timer = setTimeout(() => this.wake(), Math.max(0, Math.min(untilDue, this.#options.pollIntervalMs)));
    this.#timer.unref();
  }

  /** Starts the deliveries that are due and answers when the next one not yet started is due. */
  async #runPass(): Promise<number | null> {
    const { repository, clock, concurrency, logger } = this.#options;
    try {
      const free = concurrency - this.#inFlight.size;
      if (free <= 0) {
        return null;
      }
      const due = await repository.dueDeliveries(clock.now(), free, [...this.#inFlight.keys()]);
      for (const delivery of due) {
        const attempt = this.#attempt(delivery).finally(() => {
          this.#inFlight.delete(delivery.seq);
          if (this.#running) {
            this.wake();
          }
        });
        this.#inFlight.set(delivery.seq, attempt);
      }
      return await repository.nextDueAt([...this.#inFlight.keys()]);
    } catch (error) {
      logger.error("webhook outbox could not be read", { error: describeError(error) });
      return null;
    }
  }

  async #attempt(delivery: DueDelivery): Promise<void> {
    const { repository, clock, logger, retryDelaysMs } = this.#options;
    const fields = { event_id: delivery.eventId, webhook_id: delivery.webhookId, attempt: delivery.attempts + 1 };
    const { webhook } = delivery;
    if (!webhook?.enabled) {
      const reason = webhook ? "The webhook is disabled." : "The webhook was deleted.";
      await repository.updateDelivery(delivery.seq, {
        status: "cancelled",
        attempts: delivery.attempts,
        nextAttemptAtMs: clock.now(),
        lastError: reason,
        lastStatusCode: null,
        finishedAt: isoTimestamp(clock.now()),
      });
      logger.info("webhook delivery cancelled", { ...fields, reason });
      return;
    }

    const controller = new AbortController();
    this.#aborts.add(controller);
    let statusCode: number | null = null;
    let failure: string | null = null;
    try {
      const url = new URL(webhook.url);
      await checkDestination(url, this.#options.allowPrivateDestinations);
      const timestamp = Math.floor(clock.now() / 1000);
      const response = await fetch(url, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/json",
          "user-agent": "pigeonhole-server",
          ...deliveryHeaders(webhook.secret, delivery.eventId, timestamp, delivery.payload),
        },
        body: delivery.payload,
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(this.#options.attemptTimeoutMs)]),
      });
      statusCode = response.status;
      await response.body?.cancel();
      if (!response.ok) {
        failure = `The receiver answered ${response.status}.`;
      }
    } catch (error) {
      if (controller.signal.aborted) {
        // Shutting down: the delivery stays pending, untouched, and is attempted again after a restart.
        return;
      }
      failure = describeError(error);
    } finally {
      this.#aborts.delete(controller);
    }

    const attempts = delivery.attempts + 1;
    const now = clock.now();
    if (failure === null) {
      await repository.updateDelivery(delivery.seq, {
        status: "delivered",
        attempts,
        nextAttemptAtMs: now,
        lastError: null,
        lastStatusCode: statusCode,
        finishedAt: isoTimestamp(now),
      });
      logger.info("webhook delivered", { ...fields, status: statusCode });
      return;
    }
    const delay = retryDelaysMs[attempts - 1];
    await repository.updateDelivery(delivery.seq, {
      status: delay === undefined ? "failed" : "pending",
      attempts,
      nextAttemptAtMs: delay === undefined ? now : now + delay,
      lastError: failure,
      lastStatusCode: statusCode,
      finishedAt: delay === undefined ? isoTimestamp(now) : null,
    });
    logger.warn(delay === undefined ? "webhook delivery failed for good" : "webhook delivery failed; will retry", {
      ...fields,
      status: statusCode,
      error: failure,
      retry_in_ms: delay ?? null,
    });
  }
}
