import { describe, expect, it } from "vitest";
import { BoundedReading } from "./bounded-reading.ts";

/** A reading the test answers by hand, counting how often it was asked. */
function heldReading() {
  const pending: { resolve: (value: number) => void; reject: (error: Error) => void }[] = [];
  const read = () =>
    new Promise<number>((resolve, reject) => {
      pending.push({ resolve, reject });
    });
  return { read, pending };
}

describe("a bounded reading", () => {
  it("runs one query for any number of scrapes arriving while it runs", async () => {
    const { read, pending } = heldReading();
    const reading = new BoundedReading({ read, freshForMs: 1_000, answerWithinMs: 60_000 });
    const scrapes = Array.from({ length: 50 }, () => reading.value());
    expect(pending).toHaveLength(1);
    pending[0]?.resolve(7);
    expect(await Promise.all(scrapes)).toEqual(Array(50).fill(7));
    expect(pending).toHaveLength(1);
  });

  it("answers a fresh value again without a query, and reads anew once it is older than freshForMs", async () => {
    let nowMs = 0;
    let reads = 0;
    const reading = new BoundedReading({
      read: async () => ++reads,
      freshForMs: 1_000,
      answerWithinMs: 60_000,
      now: () => nowMs,
    });
    expect(await reading.value()).toBe(1);
    nowMs = 999;
    expect(await reading.value()).toBe(1);
    nowMs = 1_000;
    expect(await reading.value()).toBe(2);
    expect(reads).toBe(2);
  });

  it("answers nothing past answerWithinMs, and lets the slow query finish rather than start another", async () => {
    const { read, pending } = heldReading();
    const reading = new BoundedReading({ read, freshForMs: 1_000, answerWithinMs: 5 });
    expect(await reading.value()).toBeUndefined();
    expect(await reading.value()).toBeUndefined();
    expect(pending).toHaveLength(1);
    pending[0]?.resolve(3);
    // Settled: the value it found is fresh.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await reading.value()).toBe(3);
    expect(pending).toHaveLength(1);
  });

  it("answers nothing for a failed query, and queries again at the next scrape", async () => {
    const { read, pending } = heldReading();
    const reading = new BoundedReading({ read, freshForMs: 1_000, answerWithinMs: 60_000 });
    const failed = reading.value();
    pending[0]?.reject(new Error("connection refused"));
    expect(await failed).toBeUndefined();
    const next = reading.value();
    expect(pending).toHaveLength(2);
    pending[1]?.resolve(4);
    expect(await next).toBe(4);
  });
});
