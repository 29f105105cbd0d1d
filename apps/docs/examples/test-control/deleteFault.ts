import { createTestControl } from "@pigeonhole/test-control";

const tc = createTestControl();

// Armed or spent, the fault is gone; a NotFoundError if it was already.
await tc.faults.remove("flt_2Vw8Hc5Nq1Lz7Rk4");
