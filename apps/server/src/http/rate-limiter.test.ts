import { describe, expect, it } from "vitest";
import { FixedWindowRateLimiter, inMemoryRateLimiters } from "./rate-limiter.ts";

/** A clock the test sets by hand. */
const clockAt = (iso: string) => {
  let now = Date.parse(iso);
  return { now: () => now, set: (next: string) => (now = Date.parse(next)) };
};

describe("FixedWindowRateLimiter", () => {
  it("counts each bucket in windows aligned to the clock's minutes", async () => {
    const clock = clockAt("2026-11-22T10:00:45.200Z");
    const limiter = new FixedWindowRateLimiter(2, clock, "writes");
    const minuteEnd = Date.parse("2026-11-22T10:01:00.000Z") / 1000;
    expect(await limiter.take("key:a")).toEqual({
      limit: 2,
      unit: "writes",
      per: "minute",
      remaining: 1,
      resetAt: minuteEnd,
      limited: false,
      retryAfterSeconds: 15,
    });
    expect(await limiter.take("key:a")).toMatchObject({ remaining: 0, limited: false });
    expect(await limiter.take("key:a")).toMatchObject({ remaining: 0, limited: true, retryAfterSeconds: 15 });
    // Another bucket has its own count.
    expect(await limiter.take("key:b")).toMatchObject({ remaining: 1, limited: false });
    // The next minute starts afresh, however little of this one was left.
    clock.set("2026-11-22T10:00:59.999Z");
    expect(await limiter.take("key:a")).toMatchObject({ limited: true, retryAfterSeconds: 1 });
    clock.set("2026-11-22T10:01:00.000Z");
    expect(await limiter.take("key:a")).toMatchObject({ remaining: 1, limited: false, resetAt: minuteEnd + 60 });
  });
});

describe("inMemoryRateLimiters", () => {
  it("gives each window of a service its own counts, limit and unit", async () => {
    const make = inMemoryRateLimiters(clockAt("2026-11-22T10:00:00.000Z"));
    const reads = make({ name: "forum-reads", limit: 5, unit: "reads" });
    const writes = make({ name: "forum-writes", limit: 1, unit: "writes" });
    expect(await writes.take("key:a")).toMatchObject({ limit: 1, unit: "writes", remaining: 0, limited: false });
    expect(await reads.take("key:a")).toMatchObject({ limit: 5, unit: "reads", remaining: 4, limited: false });
  });
});

describe("an hourly window", () => {
  it("counts registrations per address over the clock's hour, shared through the counter", async () => {
    const clock = clockAt("2026-11-22T10:59:30.000Z");
    const make = inMemoryRateLimiters(clock);
    const registrations = make({ name: "forum-registrations", limit: 1, unit: "registrations", windowMs: 3_600_000 });
    expect(await registrations.take("address:a")).toMatchObject({ per: "hour", limited: false });
    expect(await registrations.take("address:a")).toMatchObject({ limited: true, retryAfterSeconds: 30 });
    clock.set("2026-11-22T11:00:00.000Z");
    expect(await registrations.take("address:a")).toMatchObject({ limited: false, remaining: 0 });
  });
});
