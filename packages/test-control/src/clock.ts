import type { Clock } from "@pigeonhole/test-control-types";
import type { CallOptions, TestControlApi } from "./api.js";
import { type Duration, toMilliseconds } from "./duration.js";

/** A change of the clock: a new time (never earlier than the current one), the frozen state, or both. */
export interface ClockChange {
  /** The new time: a `Date` or an ISO 8601 timestamp. Earlier than the server's time is a 400 `CLOCK_BACKWARDS`. */
  now?: Date | string;
  /** `true` stops time until it is advanced, set or unfrozen; `false` lets it run again. */
  frozen?: boolean;
}

/** The server's clock: one for the whole server, read by everything that depends on time. */
export interface ClockControl {
  /** The server's time, whether it is frozen, and how far it is ahead of real time. */
  get(options?: CallOptions): Promise<Clock>;
  /** Sets the time, freezes or unfreezes it; what `change` leaves out stays as it is. */
  set(change: ClockChange, options?: CallOptions): Promise<Clock>;
  /**
   * Moves the time forward by `by`: milliseconds, or parts such as `{ days: 1 }`. Work that falls due (retries,
   * expiry, limit windows) sees the new time at once.
   */
  advance(by: number | Duration, options?: CallOptions): Promise<Clock>;
}

export function clockControl(api: TestControlApi): ClockControl {
  return {
    get: (options) => api.get("/_test/clock", { ...options }),
    set: ({ now, frozen }, options) =>
      api.put("/_test/clock", {
        ...options,
        body: { now: now instanceof Date ? now.toISOString() : now, frozen },
      }),
    // Async, so that a duration refused here rejects like the server's refusal would, rather than throwing.
    advance: async (by, options) => api.post("/_test/clock/advance", { ...options, body: { ms: toMilliseconds(by) } }),
  };
}
