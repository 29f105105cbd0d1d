import type { ServerEvent } from "../shared/wire.ts";

/** Fans events out to every page that listens on `/api/events`. */
export class EventHub {
  readonly #listeners = new Set<(event: ServerEvent) => void>();

  /** Calls `listener` with every event from now on; returns the function that stops it. */
  subscribe(listener: (event: ServerEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  publish(event: ServerEvent): void {
    for (const listener of this.#listeners) {
      listener(event);
    }
  }
}
