import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Deadlines } from "./deadlines.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("Deadlines", () => {
  it("expires a deadline after its time, not before", () => {
    const deadlines = new Deadlines();
    const expired: string[] = [];
    deadlines.start(100, () => expired.push("a"));
    vi.advanceTimersByTime(99);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(["a"]);
    vi.advanceTimersByTime(1_000);
    expect(expired).toEqual(["a"]);
  });

  it("never expires a cleared deadline", () => {
    const deadlines = new Deadlines();
    const expire = vi.fn();
    deadlines.clear(deadlines.start(100, expire));
    vi.advanceTimersByTime(1_000);
    expect(expire).not.toHaveBeenCalled();
  });

  it("expires many deadlines each at its own time on one timer", () => {
    const deadlines = new Deadlines();
    const expired: number[] = [];
    for (const ms of [300, 100, 200, 100]) {
      deadlines.start(ms, () => expired.push(ms));
    }
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(100);
    expect(expired).toEqual([100, 100]);
    vi.advanceTimersByTime(100);
    expect(expired).toEqual([100, 100, 200]);
    vi.advanceTimersByTime(100);
    expect(expired).toEqual([100, 100, 200, 300]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("re-arms for a shorter deadline that starts later", () => {
    const deadlines = new Deadlines();
    const expired: string[] = [];
    deadlines.start(60_000, () => expired.push("long"));
    vi.advanceTimersByTime(1_000);
    deadlines.start(50, () => expired.push("short"));
    vi.advanceTimersByTime(50);
    expect(expired).toEqual(["short"]);
    vi.advanceTimersByTime(58_950);
    expect(expired).toEqual(["short", "long"]);
  });

  it("keeps going after the first expiry, for deadlines started since", () => {
    const deadlines = new Deadlines();
    const expired: string[] = [];
    const first = deadlines.start(100, () => expired.push("first"));
    deadlines.clear(first);
    vi.advanceTimersByTime(50);
    deadlines.start(100, () => expired.push("second"));
    vi.advanceTimersByTime(50); // the timer armed for the first fires, finds nothing due, re-arms
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(expired).toEqual(["second"]);
  });
});

describe("Deadlines with real timers", () => {
  it("does not keep a Node process alive while armed", () => {
    vi.useRealTimers();
    const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
    const deadlines = new Deadlines();
    const deadline = deadlines.start(60_000, () => undefined);
    const timer = setTimeoutSpy.mock.results[0]?.value as { hasRef(): boolean };
    expect(timer.hasRef()).toBe(false);
    deadlines.clear(deadline);
    setTimeoutSpy.mockRestore();
  });
});
