import { createTestControl } from "@pigeonhole/test-control";

const tc = createTestControl();

// Stop time where it stands: every timestamp written from now on is
// the same, until the clock is advanced or runs again.
const frozen = await tc.clock.set({ frozen: true });
console.log("frozen at", frozen.now);

// Jump to a later time (a Date or an ISO 8601 string) and keep
// running from there. An earlier time is refused: CLOCK_BACKWARDS.
const later = new Date(Date.parse(frozen.now) + 60 * 60 * 1000);
const clock = await tc.clock.set({ now: later, frozen: false });
console.log("running from", clock.now);
