import type { Clock } from "../clock.ts";

export interface RateLimitState {
  limit: number;
  /** What is counted, for messages: "requests", "reads", "writes". */
  unit: string;
  /** Requests left in the window, this one included; 0 once the limit is reached. */
  remaining: number;
  /** Unix seconds at which the window resets. */
  resetAt: number;
  /** Whether this request is over the limit. */
  limited: boolean;
  /** Seconds to wait before retrying (only meaningful when limited). */
  retryAfterSeconds: number;
}

const WINDOW_MS = 60_000;

/**
 * Fixed one-minute windows aligned to the clock's minutes, per bucket (an API key, or a client address for
 * requests without a valid key). Kept in memory: a restart starts every window afresh.
 */
export class FixedWindowRateLimiter {
  readonly #limit: number;
  readonly #unit: string;
  readonly #clock: Clock;
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(limit: number, clock: Clock, unit = "requests") {
    this.#limit = limit;
    this.#unit = unit;
    this.#clock = clock;
  }

  /** Counts one request against the bucket and tells whether it may proceed. */
  take(bucket: string): RateLimitState {
    const now = this.#clock.now();
    const start = now - (now % WINDOW_MS);
    let window = this.#windows.get(bucket);
    if (!window || window.start !== start) {
      if (this.#windows.size > 10_000) {
        this.#evictExpired(start);
      }
      window = { start, count: 0 };
      this.#windows.set(bucket, window);
    }
    window.count += 1;
    const resetMs = start + WINDOW_MS;
    return {
      limit: this.#limit,
      unit: this.#unit,
      remaining: Math.max(0, this.#limit - window.count),
      resetAt: Math.ceil(resetMs / 1000),
      limited: window.count > this.#limit,
      retryAfterSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }

  #evictExpired(currentStart: number) {
    for (const [bucket, window] of this.#windows) {
      if (window.start !== currentStart) {
        this.#windows.delete(bucket);
      }
    }
  }
}
