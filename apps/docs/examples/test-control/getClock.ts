import { createTestControl } from "@pigeonhole/test-control";

// Reads PIGEONHOLE_TEST_CONTROL_URL and PIGEONHOLE_TEST_CONTROL_KEY, or
// talks to a server running locally with its default key.
const tc = createTestControl();

const clock = await tc.clock.get();
console.log(clock.now, clock.frozen ? "frozen" : "running");
console.log(`${clock.offset_ms} ms ahead of real time`);
