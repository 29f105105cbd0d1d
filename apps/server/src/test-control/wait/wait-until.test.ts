import { describe, expect, it } from "vitest";
import { waitUntil } from "./wait-until.ts";
import { WaitWakeups } from "./wait-wakeups.ts";

describe("waitUntil", () => {
  it("looks only at the poll interval while nothing notifies it, then gives up at the deadline", async () => {
    const wakeups = new WaitWakeups();
    let looks = 0;
    const started = performance.now();
    const found = await waitUntil(
      async () => {
        looks++;
        return null;
      },
      { timeoutMs: 600, pollMs: 250, wakeups },
    );
    expect(found).toBeNull();
    expect(performance.now() - started).toBeGreaterThanOrEqual(599);
    // Now, at 250 and 500 ms, and once more at the deadline.
    expect(looks).toBeGreaterThanOrEqual(4);
    expect(looks).toBeLessThanOrEqual(5);
    expect(wakeups.listening).toBe(0);
  });

  it("looks again at once when notified, and once more for notifications that came during a look", async () => {
    const wakeups = new WaitWakeups();
    let looks = 0;
    const waiting = waitUntil(
      async () => {
        looks++;
        if (looks === 2) {
          // Three commits while the second look reads: one more look covers them all.
          wakeups.notify();
          wakeups.notify();
          wakeups.notify();
        }
        return looks === 3 ? "found" : null;
      },
      { timeoutMs: 5_000, pollMs: 60_000, wakeups },
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(looks).toBe(1);
    wakeups.notify();
    // Only the notification can answer: the next poll is a minute away and the deadline five seconds.
    expect(await waiting).toBe("found");
    expect(looks).toBe(3);
    expect(wakeups.listening).toBe(0);
  });

  it("ends when its signal aborts, without waiting for the deadline", async () => {
    const wakeups = new WaitWakeups();
    const controller = new AbortController();
    const waiting = waitUntil(async () => null, {
      timeoutMs: 60_000,
      pollMs: 60_000,
      wakeups,
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(wakeups.listening).toBe(1);
    controller.abort();
    expect(await waiting).toBeNull();
    expect(wakeups.listening).toBe(0);
  });
});
