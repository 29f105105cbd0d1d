import type { ServerLogger } from "../../logger.ts";
import { DEFAULT_EVENT_POLL_MS } from "../../options/defaults.ts";
import type { EventLog, LoggedEvent } from "../../storage/inbox/event-log.ts";

/** One connection's subscription, as the hub feeds it. */
export interface EventSubscriber {
  readonly podId: string;
  /** Event types wanted; null for all. */
  readonly eventTypes: ReadonlySet<string> | null;
  /** Inboxes wanted; null for every inbox of the pod. */
  readonly inboxIds: ReadonlySet<string> | null;
  /** The last event this subscriber was given or passed over; only later events reach it. */
  position: number;
  /** Whether it takes no more for now (its client reads slowly); the hub skips it until woken again. */
  readonly paused: boolean;
  /**
   * Sends one event's payload, encoded once for every subscriber of the batch (the same bytes are queued on each
   * connection, never a copy per connection). False when the subscriber cannot take it now: its position stays
   * before the event, which it is given again once woken.
   */
  send(frame: Buffer): boolean;
}

export interface EventHubOptions {
  log: EventLog;
  logger: ServerLogger;
  /** How often every pod with subscribers is read again, whatever was heard: the safety net under notifications. */
  pollMs?: number;
  /** Events read from the log at once. */
  batchSize?: number;
}

const matches = (subscriber: EventSubscriber, event: LoggedEvent) =>
  (subscriber.eventTypes === null || subscriber.eventTypes.has(event.eventType)) &&
  (subscriber.inboxIds === null || subscriber.inboxIds.has(event.inboxId));

/** The subscribers of one pod and the one read of its log in progress. */
class PodFeed {
  readonly subscribers = new Set<EventSubscriber>();
  #running: Promise<void> | undefined;
  #again = false;
  readonly #podId: string;
  readonly #options: Required<EventHubOptions>;

  constructor(podId: string, options: Required<EventHubOptions>) {
    this.#podId = podId;
    this.#options = options;
  }

  get idle(): boolean {
    return this.#running === undefined;
  }

  /** Reads the log until every subscriber has what was stored; a wake during a read reads once more after it. */
  wake(): Promise<void> {
    this.#again = true;
    this.#running ??= this.#run().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #run() {
    while (this.#again) {
      this.#again = false;
      try {
        await this.#catchUp();
      } catch (error) {
        // The next wake or poll reads again from the same positions: nothing is skipped.
        this.#options.logger.warn("event stream read failed", {
          pod_id: this.#podId,
          error: error instanceof Error ? error.message : String(error),
        });
        return;
      }
    }
  }

  async #catchUp() {
    const { log, batchSize } = this.#options;
    for (;;) {
      const ready = [...this.subscribers].filter((subscriber) => !subscriber.paused);
      if (ready.length === 0) {
        return;
      }
      const from = Math.min(...ready.map((subscriber) => subscriber.position));
      const batch = await log.readAfter(this.#podId, from, batchSize);
      const frames = new Map<LoggedEvent, Buffer>();
      const frameOf = (event: LoggedEvent) => {
        let frame = frames.get(event);
        if (!frame) {
          frame = Buffer.from(event.payload);
          frames.set(event, frame);
        }
        return frame;
      };
      for (const subscriber of ready) {
        for (const event of batch) {
          if (!this.subscribers.has(subscriber) || subscriber.paused) {
            break;
          }
          if (event.seq <= subscriber.position) {
            continue;
          }
          if (matches(subscriber, event) && !subscriber.send(frameOf(event))) {
            break;
          }
          subscriber.position = event.seq;
        }
      }
      if (batch.length < batchSize) {
        return;
      }
    }
  }
}

/**
 * Feeds live event subscribers from the event log. Each subscriber keeps its own position, and every event reaches
 * it from the log, replayed or live alike, so nothing is lost or repeated. A committed send wakes the pods it
 * stored events for (on this instance directly, on others through the database's notifications); a slow poll
 * catches anything a lost notification would have missed.
 */
export class EventHub {
  readonly #feeds = new Map<string, PodFeed>();
  readonly #options: Required<EventHubOptions>;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: EventHubOptions) {
    this.#options = { pollMs: DEFAULT_EVENT_POLL_MS, batchSize: 500, ...options };
  }

  start(): void {
    this.#timer ??= setInterval(() => this.wakeAll(), this.#options.pollMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Adds a subscriber, which is then given every matching event after its position. */
  add(subscriber: EventSubscriber): void {
    let feed = this.#feeds.get(subscriber.podId);
    if (!feed) {
      feed = new PodFeed(subscriber.podId, this.#options);
      this.#feeds.set(subscriber.podId, feed);
    }
    feed.subscribers.add(subscriber);
    void feed.wake();
  }

  remove(subscriber: EventSubscriber): void {
    const feed = this.#feeds.get(subscriber.podId);
    feed?.subscribers.delete(subscriber);
    if (feed && feed.subscribers.size === 0 && feed.idle) {
      this.#feeds.delete(subscriber.podId);
    }
  }

  /** The pod stored events (or a paused subscriber of it can take more): its subscribers read the log. */
  wake(podId: string): void {
    void this.#feeds.get(podId)?.wake();
  }

  wakeAll(): void {
    for (const [podId, feed] of this.#feeds) {
      if (feed.subscribers.size === 0 && feed.idle) {
        this.#feeds.delete(podId);
      } else {
        void feed.wake();
      }
    }
  }
}
