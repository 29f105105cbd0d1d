import type { TestControl } from "@pigeonhole/test-control";

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * Freezes the server's clock `msLeft` milliseconds before the end of a window of `windowMs` (the server's limit
 * windows are aligned to the epoch: minutes, hours, UTC days). The window is one that starts after the clock's
 * current time, so its counters are fresh. The wait the server asks for is then known exactly, and the test moves
 * the clock past it instead of waiting.
 */
export async function freezeBeforeWindowEnd(control: TestControl, windowMs: number, msLeft: number): Promise<void> {
  const now = Date.parse((await control.clock.get()).now);
  const nextWindow = now - (now % windowMs) + windowMs;
  await control.clock.set({ now: new Date(nextWindow + windowMs - msLeft), frozen: true });
}
