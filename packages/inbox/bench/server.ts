// A fixed Inbox API answer on 127.0.0.1, run in its own process so it does not share the client's event loop.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const inbox = (n: number) => ({
  pod_id: "3f0c2a8e-6b1d-4f5a-9c2e-7d4b8a1e5f60",
  inbox_id: `agent-${n}@pigeonhole.test`,
  display_name: `Agent ${n}`,
  client_id: null,
  created_at: "2026-11-22T09:30:00.000Z",
  updated_at: "2026-11-22T09:30:00.000Z",
});
const body = JSON.stringify({
  count: 10,
  limit: 10,
  next_page_token: null,
  inboxes: Array.from({ length: 10 }, (_, i) => inbox(i)),
});
const headers = {
  "content-type": "application/json",
  "content-length": String(Buffer.byteLength(body)),
  "x-request-id": "req_bench",
};

const server = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    response.writeHead(200, headers);
    response.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on("disconnect", () => server.close(() => process.exit(0)));
