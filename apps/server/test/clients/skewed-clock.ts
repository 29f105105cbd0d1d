import type { Clock } from "../../src/clock.ts";

const MINUTE_MS = 60_000;

/**
 * The real time plus an offset that only grows. The server's rate limits use fixed windows aligned to the clock's
 * minutes, so moving the clock close to the end of a window makes a limited client's wait short (a few seconds)
 * while the server keeps computing `Retry-After` as it always does.
 */
export class SkewedClock implements Clock {
  #skewMs = 0;

  now(): number {
    return Date.now() + this.#skewMs;
  }

  /** Moves the clock forward so that `msBeforeEnd` milliseconds are left in the current one-minute window. */
  moveNearWindowEnd(msBeforeEnd: number): void {
    const now = this.now();
    let target = now - (now % MINUTE_MS) + MINUTE_MS - msBeforeEnd;
    if (target < now) {
      target += MINUTE_MS;
    }
    this.#skewMs += target - now;
  }
}
