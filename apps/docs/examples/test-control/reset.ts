import { createTestControl } from "@pigeonhole/test-control";

const tc = createTestControl();

// One key's data (its inboxes, messages, webhooks, counters, ...); the
// key stays valid and other keys' data is untouched.
await tc.reset({ api_key: "pigeonhole-inbox-dev" });

// Everything: all data of both services (keys and agents stay), every
// fault, and the clock, back on real time.
await tc.reset();
