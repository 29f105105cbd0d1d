import { createTestControl } from "@pigeonhole/test-control";

const tc = createTestControl();

// How often the fault was applied, and how many more times it will be.
const fault = await tc.faults.get("flt_2Vw8Hc5Nq1Lz7Rk4");
console.log(
  fault.target,
  `${fault.hits} hits, ${fault.remaining} left`,
);
