import { createTestControl } from "@pigeonhole/test-control";

const tc = createTestControl();

// One day later: the daily send limit has reset, and webhook and mail
// retries that fell due are attempted at once.
const clock = await tc.clock.advance({ days: 1 });
console.log(clock.now, `${clock.offset_ms} ms ahead`);

// Or in milliseconds.
await tc.clock.advance(5_000);
