import { describe, expect, it } from "vitest";
import type { Clock } from "../clock.ts";
import { ClockBackwardsError, ControllableClock } from "./controllable-clock.ts";

/** Real time that moves one millisecond every time it is read, the worst case for reading it twice. */
const tickingClock = (startMs: number): Clock => {
  let nowMs = startMs;
  return { now: () => nowMs++ };
};

describe("ControllableClock", () => {
  it("reports no offset after a reset even when real time moves between readings", () => {
    const clock = new ControllableClock(tickingClock(1_000));
    clock.advance(3_600_000);
    expect(clock.reset()).toMatchObject({ frozen: false, offsetMs: 0 });
    expect(clock.state().offsetMs).toBe(0);
  });

  it("reports the offset it was advanced by while running", () => {
    const clock = new ControllableClock(tickingClock(1_000));
    expect(clock.advance(5_000).offsetMs).toBe(5_000);
  });

  it("stays where it was frozen while real time runs on", () => {
    const clock = new ControllableClock(tickingClock(1_000));
    const frozen = clock.set({ frozen: true });
    expect(clock.now()).toBe(frozen.nowMs);
    expect(clock.now()).toBe(frozen.nowMs);
  });

  it("refuses to go back and tells its listeners of every move forward", () => {
    const clock = new ControllableClock(tickingClock(1_000));
    let forwards = 0;
    clock.onForward(() => forwards++);
    expect(() => clock.set({ nowMs: 0 })).toThrow(ClockBackwardsError);
    clock.advance(1);
    clock.set({ nowMs: clock.now() + 10 });
    expect(forwards).toBe(2);
  });
});
