const NEVER = Number.POSITIVE_INFINITY;

/** A pending deadline; pass it back to `clear` once it no longer matters. */
export interface Deadline {
  readonly at: number;
  readonly expire: () => void;
}

/**
 * Timeouts for any number of concurrent attempts on one shared timer, armed for the earliest deadline. Starting
 * and clearing a deadline is a Set insert and delete, where a timer per attempt would cost a platform timer
 * created and cancelled on every request.
 */
export class Deadlines {
  readonly #pending = new Set<Deadline>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #armedFor = NEVER;

  /** Calls `expire` once, `ms` from now, unless the deadline is cleared first. */
  start(ms: number, expire: () => void): Deadline {
    const deadline = { at: performance.now() + ms, expire };
    this.#pending.add(deadline);
    if (deadline.at < this.#armedFor) {
      this.#arm(deadline.at);
    }
    return deadline;
  }

  clear(deadline: Deadline): void {
    this.#pending.delete(deadline);
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#armedFor = at;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, at - performance.now()));
    // In Node, a timer left armed after the last request must not keep the process alive.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #fire(): void {
    this.#timer = undefined;
    this.#armedFor = NEVER;
    const now = performance.now();
    let next = NEVER;
    for (const deadline of this.#pending) {
      if (deadline.at <= now) {
        this.#pending.delete(deadline);
        deadline.expire();
      } else if (deadline.at < next) {
        next = deadline.at;
      }
    }
    if (next !== NEVER) {
      this.#arm(next);
    }
  }
}
