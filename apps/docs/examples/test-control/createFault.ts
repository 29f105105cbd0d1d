import { createTestControl } from "@pigeonhole/test-control";

const tc = createTestControl();

// The next two sends with this key answer 429 with Retry-After: 2.
const fault = await tc.faults.add({
  target: "request",
  match: {
    method: "POST",
    path: "/v0/inboxes/*/messages", // `*` one segment, `**` any
    api_key: "pigeonhole-inbox-dev",
  },
  times: 2,
  action: {
    type: "respond",
    status: 429,
    headers: { "Retry-After": "2" },
  },
});
console.log(fault.fault_id, `${fault.remaining} left`);

// The next mail to this address bounces instead of reaching a relay.
await tc.faults.add({
  target: "mail",
  match: { to: "ada@example.com" },
  action: { type: "bounce" },
});
