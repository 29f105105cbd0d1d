import type { Clock } from "../../clock.ts";
import type { ServerLogger } from "../../logger.ts";
import type { EventLog } from "../../storage/inbox/event-log.ts";
import { EVENT_RETENTION_MS } from "./event-stream.ts";

const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
/** Rows deleted per statement, so that pruning never holds a long transaction. */
const PRUNE_BATCH = 1_000;
/** Statements per round; whatever is left waits for the next round. */
const MAX_BATCHES = 100;

/** Deletes events older than the stream's 7-day window, once an hour and at start, in bounded batches. */
export class EventPruner {
  readonly #log: EventLog;
  readonly #clock: Clock;
  readonly #logger: ServerLogger;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(log: EventLog, clock: Clock, logger: ServerLogger) {
    this.#log = log;
    this.#clock = clock;
    this.#logger = logger;
  }

  start(): void {
    this.#timer ??= setInterval(() => void this.prune(), PRUNE_INTERVAL_MS);
    this.#timer.unref();
    void this.prune();
  }

  /** Stops the timer and waits for a round in progress. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** One round of pruning. */
  prune(): Promise<void> {
    this.#running ??= this.#round()
      .catch((error: unknown) =>
        this.#logger.warn("event pruning failed", { error: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => {
        this.#running = undefined;
      });
    return this.#running;
  }

  async #round() {
    const before = this.#clock.now() - EVENT_RETENTION_MS;
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      if ((await this.#log.pruneOlderThan(before, PRUNE_BATCH)) < PRUNE_BATCH) {
        return;
      }
    }
  }
}
