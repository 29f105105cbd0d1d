import type { Clock } from "../clock.ts";
import type { WindowCounter } from "../storage/rate-limit-windows.ts";
import { MemoryWindowCounter } from "../storage/rate-limit-windows.ts";

export interface RateLimitState {
  limit: number;
  /** What is counted, for messages: "requests", "reads", "writes". */
  unit: string;
  /** The window, for messages: "minute" or "hour". */
  per: string;
  /** Requests left in the window, this one included; 0 once the limit is reached. */
  remaining: number;
  /** Unix seconds at which the window resets. */
  resetAt: number;
  /** Whether this request is over the limit. */
  limited: boolean;
  /** Seconds to wait before retrying (only meaningful when limited). */
  retryAfterSeconds: number;
}

/**
 * Counts requests per bucket in one-minute windows. An implementation may keep its counts anywhere; one shared by
 * several server processes makes the limit hold over all of them together.
 */
export interface RateLimiter {
  /** Counts one request against the bucket and tells whether it may proceed. */
  take(bucket: string): Promise<RateLimitState>;
}

/**
 * Fixed windows (a minute unless told otherwise) aligned to the clock, per bucket (an API key, or a client address for
 * requests without a valid key). The counts live where `counter` keeps them: in this process by default, in the
 * database when several instances share it.
 */
export class FixedWindowRateLimiter implements RateLimiter {
  readonly #limit: number;
  readonly #unit: string;
  readonly #clock: Clock;
  readonly #counter: WindowCounter;
  readonly #prefix: string;
  readonly #windowMs: number;

  constructor(
    limit: number,
    clock: Clock,
    unit = "requests",
    counter: WindowCounter = new MemoryWindowCounter(),
    name = unit,
    windowMs = 60_000,
  ) {
    this.#windowMs = windowMs;
    this.#limit = limit;
    this.#unit = unit;
    this.#clock = clock;
    this.#counter = counter;
    this.#prefix = `${name}:`;
  }

  async take(bucket: string): Promise<RateLimitState> {
    const now = this.#clock.now();
    const start = now - (now % this.#windowMs);
    const count = await this.#counter.increment(this.#prefix + bucket, start);
    const resetMs = start + this.#windowMs;
    return {
      limit: this.#limit,
      unit: this.#unit,
      per:
        this.#windowMs === 3_600_000
          ? "hour"
          : this.#windowMs === 60_000
            ? "minute"
            : `${this.#windowMs / 1000} seconds`,
      remaining: Math.max(0, this.#limit - count),
      resetAt: Math.ceil(resetMs / 1000),
      limited: count > this.#limit,
      retryAfterSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }
}

/** What one rate limit of a service counts: its name (unique over the services), limit per window, and unit. */
export interface RateLimitWindow {
  name: string;
  limit: number;
  /** What is counted, for messages: "requests", "reads", "writes". */
  unit: string;
  /** The window's length. Default a minute. */
  windowMs?: number;
}

/** Makes the limiter of one of a service's rate limits. */
export type RateLimiterFactory = (window: RateLimitWindow) => RateLimiter;

/** Limiters that keep their counts in this process. */
export const inMemoryRateLimiters = (clock: Clock): RateLimiterFactory =>
  countedRateLimiters(new MemoryWindowCounter(), clock);

/** Limiters that keep their counts with `counter` (the storage's: shared by every instance on a database). */
export const countedRateLimiters =
  (counter: WindowCounter, clock: Clock): RateLimiterFactory =>
  ({ name, limit, unit, windowMs }) =>
    new FixedWindowRateLimiter(limit, clock, unit, counter, name, windowMs);
