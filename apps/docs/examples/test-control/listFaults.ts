import { createTestControl } from "@pigeonhole/test-control";

const tc = createTestControl();

// Oldest first, the order they are tried in; spent ones stay listed.
for (const fault of await tc.faults.list()) {
  console.log(
    fault.fault_id,
    fault.target,
    fault.action.type,
    `${fault.hits} hits, ${fault.remaining} left`,
  );
}
