/**
 * Runs `renew` every `intervalMs` of real time from `start` until `stop`, one run at a time (a slow database delays
 * the next run rather than stacking them); `stop` waits for a run under way.
 */
export class ClaimRenewals {
  readonly #intervalMs: number;
  readonly #renew: () => Promise<void>;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;

  constructor(intervalMs: number, renew: () => Promise<void>) {
    this.#intervalMs = intervalMs;
    this.#renew = renew;
  }

  start(): void {
    this.#stopped = false;
    this.#schedule();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(): void {
    if (this.#stopped) {
      return;
    }
    this.#timer = setTimeout(() => {
      this.#running = this.#renew().finally(() => {
        this.#running = undefined;
        this.#schedule();
      });
    }, this.#intervalMs);
    this.#timer.unref();
  }
}
