import type { ServerDatabase } from "./database.ts";

/** Counts requests per bucket in fixed windows. */
export interface WindowCounter {
  /** Counts one more request in the bucket's window that starts at `windowStartMs`, and answers the window's count. */
  increment(bucket: string, windowStartMs: number): Promise<number>;
  /** Forgets the counts of the buckets whose name ends with `suffix` (a caller's, such as `:key:<id>`), or of all. */
  forget(suffix?: string): Promise<void>;
}

/**
 * Windows counted in the database, so that every instance on it counts against the same limit. The counting statement
 * is one upsert: concurrent requests on any instance each get a distinct count.
 */
export class DatabaseWindowCounter implements WindowCounter {
  readonly #db: ServerDatabase;
  #lastSweepMs = 0;

  constructor(db: ServerDatabase) {
    this.#db = db;
  }

  async increment(bucket: string, windowStartMs: number): Promise<number> {
    const row = await this.#db
      .insertInto("rate_limit_windows")
      .values({ bucket, window_start_ms: windowStartMs, count: 1 })
      .onConflict((oc) =>
        oc
          .columns(["bucket", "window_start_ms"])
          .doUpdateSet((eb) => ({ count: eb("rate_limit_windows.count", "+", 1) })),
      )
      .returning("count")
      .executeTakeFirstOrThrow();
    if (windowStartMs > this.#lastSweepMs) {
      // Past windows are never read again; each instance removes them once per window.
      this.#lastSweepMs = windowStartMs;
      await this.#db.deleteFrom("rate_limit_windows").where("window_start_ms", "<", windowStartMs).execute();
    }
    return row.count;
  }

  async forget(suffix?: string): Promise<void> {
    const query = this.#db.deleteFrom("rate_limit_windows");
    await (suffix === undefined ? query : query.where("bucket", "like", `%${suffix}`)).execute();
  }
}

/**
 * Windows counted in this process's memory: for the embedded database, which one server process owns. Only the
 * current window of each bucket is kept.
 */
export class MemoryWindowCounter implements WindowCounter {
  readonly #windows = new Map<string, { start: number; count: number }>();

  async increment(bucket: string, windowStartMs: number): Promise<number> {
    let window = this.#windows.get(bucket);
    if (!window || window.start !== windowStartMs) {
      if (this.#windows.size > 10_000) {
        for (const [key, each] of this.#windows) {
          if (each.start !== windowStartMs) {
            this.#windows.delete(key);
          }
        }
      }
      window = { start: windowStartMs, count: 0 };
      this.#windows.set(bucket, window);
    }
    window.count += 1;
    return window.count;
  }

  async forget(suffix?: string): Promise<void> {
    for (const bucket of this.#windows.keys()) {
      if (suffix === undefined || bucket.endsWith(suffix)) {
        this.#windows.delete(bucket);
      }
    }
  }
}
