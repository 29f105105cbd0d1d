const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/**
 * The middle of the hour `now` is in. The server's hourly limits count in windows aligned to the clock's hours: a
 * clock started here keeps a test's requests in one window, whatever the time of day it runs at.
 */
export function middleOfTheHour(now = Date.now()): number {
  return now - (now % HOUR_MS) + HOUR_MS / 2;
}

/**
 * The real time plus an offset, for the Pigeonhole server's `clock`: it runs at the real pace from `startAt` on, and
 * only moves forward. The server's per-minute limits count in fixed windows aligned to the clock's minutes, so moving
 * the clock near the end of a window makes the wait a limited client is asked for short, while the server computes
 * `Retry-After` as it always does.
 */
export class MovableClock {
  #offsetMs: number;

  constructor(startAt = Date.now()) {
    this.#offsetMs = startAt - Date.now();
  }

  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.#offsetMs += ms;
  }

  /**
   * Moves the clock into the next minute, `msLeft` milliseconds before its end: no request has been counted in that
   * window yet, and it closes soon.
   */
  moveToFreshWindowEnd(msLeft: number): void {
    const now = this.now();
    const nextWindowEnd = now - (now % MINUTE_MS) + 2 * MINUTE_MS;
    this.#offsetMs += nextWindowEnd - msLeft - now;
  }
}
