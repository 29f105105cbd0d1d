import type { WaitWakeups } from "./wait-wakeups.ts";

export interface WaitUntilOptions {
  /** Real milliseconds to wait for a match at most; 0 looks once. */
  timeoutMs: number;
  /** Looks again after this long without a notification: the safety net under {@link WaitWakeups}. */
  pollMs: number;
  wakeups: WaitWakeups;
  /** Ends the wait early (the client went away). */
  signal?: AbortSignal;
}

/**
 * Looks for a match with `find` now, then again on every notification (coalesced: notifications during a look cause
 * one more look after it) and every `pollMs`, until it finds one, `timeoutMs` has passed, or `signal` aborts.
 * Answers the match, or null. Nothing stays behind once it returns: no timer, no listener.
 */
export async function waitUntil<T>(find: () => Promise<T | null>, options: WaitUntilOptions): Promise<T | null> {
  const { timeoutMs, pollMs, wakeups, signal } = options;
  const deadline = performance.now() + timeoutMs;
  let notified = false;
  let wake: (() => void) | undefined;
  const unsubscribe = wakeups.subscribe(() => {
    notified = true;
    wake?.();
  });
  const onAbort = () => wake?.();
  signal?.addEventListener("abort", onAbort);
  try {
    for (;;) {
      notified = false;
      const found = await find();
      if (found !== null) {
        return found;
      }
      const remaining = deadline - performance.now();
      // A timer cannot wait less than a millisecond: what is left below that is the deadline reached.
      if (remaining < 1 || signal?.aborted) {
        return null;
      }
      if (!notified) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(pollMs, remaining));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
        if (signal?.aborted) {
          return null;
        }
      }
    }
  } finally {
    unsubscribe();
    signal?.removeEventListener("abort", onAbort);
  }
}
