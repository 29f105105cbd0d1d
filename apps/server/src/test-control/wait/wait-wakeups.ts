/**
 * Tells the waits in progress that what they look for may just have been stored: a send or a received mail
 * committed, a webhook delivery was queued or its attempt recorded, or another instance announced events. A wait
 * then looks again at once; a notification costs one look per wait, whatever it was about.
 */
export class WaitWakeups {
  readonly #listeners = new Set<() => void>();

  /** Something was committed: every wait looks again. */
  notify(): void {
    for (const listener of [...this.#listeners]) {
      listener();
    }
  }

  /** Calls `listener` on every notification until the returned function is called. */
  subscribe(listener: () => void): () => void {
    // A wrapper per subscription, so the same function subscribed twice is removed once per call.
    const subscription = () => listener();
    this.#listeners.add(subscription);
    return () => {
      this.#listeners.delete(subscription);
    };
  }

  /** Waits listening now (a wait that ended, by any way, no longer listens). */
  get listening(): number {
    return this.#listeners.size;
  }
}
