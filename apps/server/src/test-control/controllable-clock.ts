import type { Clock } from "../clock.ts";

/** Where the clock stands: its time, whether it is frozen, and how far it is from real time. */
export interface ClockState {
  nowMs: number;
  frozen: boolean;
  offsetMs: number;
}

/** Set Clock asked for a time earlier than the clock's: time never goes back. */
export class ClockBackwardsError extends Error {
  override name = "ClockBackwardsError";
}

/**
 * The server's clock under test control: real time plus an offset, or frozen at one instant. Every part of the
 * server reads it through `now()`, which costs one addition. `onForward` hears of every move forward (set, advance,
 * unfreeze), so that background work falling due can be woken at once.
 */
export class ControllableClock implements Clock {
  readonly #real: Clock;
  #offsetMs = 0;
  #frozenAtMs: number | null = null;
  readonly #listeners = new Set<() => void>();

  constructor(real: Clock) {
    this.#real = real;
  }

  now(): number {
    return this.#frozenAtMs ?? this.#real.now() + this.#offsetMs;
  }

  state(): ClockState {
    // One reading of real time: two could fall either side of a millisecond and report an offset that is not there.
    const realMs = this.#real.now();
    const nowMs = this.#frozenAtMs ?? realMs + this.#offsetMs;
    return { nowMs, frozen: this.#frozenAtMs !== null, offsetMs: nowMs - realMs };
  }

  /** Calls `listener` after every move forward; answers a function that stops it. */
  onForward(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Sets the time (never earlier than now), then freezes it there or lets it run from there. */
  set(change: { nowMs?: number; frozen?: boolean }): ClockState {
    const realMs = this.#real.now();
    const current = this.#frozenAtMs ?? realMs + this.#offsetMs;
    if (change.nowMs !== undefined && change.nowMs < current) {
      throw new ClockBackwardsError(`${new Date(change.nowMs).toISOString()} is earlier than the current time.`);
    }
    const target = change.nowMs ?? current;
    this.#frozenAtMs = (change.frozen ?? this.#frozenAtMs !== null) ? target : null;
    this.#offsetMs = target - realMs;
    if (target > current) {
      this.#forward();
    }
    return this.state();
  }

  /** Moves the time forward by `ms`, frozen or not. */
  advance(ms: number): ClockState {
    this.#offsetMs += ms;
    if (this.#frozenAtMs !== null) {
      this.#frozenAtMs += ms;
    }
    this.#forward();
    return this.state();
  }

  /** Back to real time, running (the one way time may go back: a reset of everything). */
  reset(): ClockState {
    this.#offsetMs = 0;
    this.#frozenAtMs = null;
    this.#forward();
    return this.state();
  }

  #forward() {
    for (const listener of this.#listeners) {
      listener();
    }
  }
}
