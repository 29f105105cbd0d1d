import { createTestControl } from "@pigeonhole/test-control";

const tc = createTestControl();

// Every fault, armed or spent; the data and the clock stay as they are.
await tc.faults.clear();
