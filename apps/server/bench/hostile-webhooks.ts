// How long a pod's webhook delivery waits while another pod's receivers hang. One pod has HOSTILE_ENDPOINTS (24)
// webhooks whose receivers accept the connection and never answer; another pod has one webhook whose receiver answers
// at once. Each pod sends one message (an event for each of its webhooks), the hostile pod first; the script prints
// how long the well-behaved pod's delivery took to arrive, and how many hostile attempts were open at that moment.
// The server runs in this process on SQLite in memory with its production delivery settings (attempt timeout 15 s);
// the receivers are on 127.0.0.1.
// Usage: pnpm --filter @pigeonhole/server exec node bench/hostile-webhooks.ts
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { startServer } from "../src/server.ts";
import type { InboxClient } from "../test/support/test-server.ts";
import { expectData, inboxClient } from "../test/support/test-server.ts";

const out = (line: string) => process.stdout.write(`${line}\n`);
const hostileEndpoints = Number(process.env.HOSTILE_ENDPOINTS ?? 24);
/** The longest the script waits for the well-behaved delivery. */
const giveUpSeconds = Number(process.env.HOSTILE_GIVE_UP_SECONDS ?? 180);

/** A receiver on 127.0.0.1; `answer` false holds every request open, unanswered, until the receiver closes. */
async function startReceiver(answer: boolean) {
  const held = new Set<ServerResponse>();
  let arrived = 0;
  const onArrival: (() => void)[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on("end", () => {
      arrived += 1;
      for (const notify of onArrival.splice(0)) {
        notify();
      }
      if (answer) {
        response.writeHead(200).end();
      } else {
        held.add(response);
        response.on("close", () => held.delete(response));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    held: () => held.size,
    arrived: () => arrived,
    nextArrival: () => new Promise<void>((resolve) => onArrival.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function podWithWebhooks(client: InboxClient, username: string, urls: readonly string[]): Promise<string> {
  const inboxId = expectData(await client.POST("/v0/inboxes", { body: { username } })).inbox_id;
  for (const url of urls) {
    expectData(await client.POST("/v0/webhooks", { body: { url, event_types: ["message.sent"] } }));
  }
  return inboxId;
}

const sendOne = async (client: InboxClient, inboxId: string) =>
  expectData(
    await client.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: inboxId } },
      body: { to: "someone@example.com", subject: "hello", text: "hello" },
    }),
  );

const server = await startServer({
  database: ":memory:",
  inboxPort: 0,
  forumPort: 0,
  logger: process.env.HOSTILE_LOG ? undefined : false,
  allowPrivateWebhooks: true,
  // Room for the hostile pod's endpoints where the server caps webhooks per pod.
  webhooksPerPod: Math.max(hostileEndpoints, 1),
  limits: { inboxRequestsPerMinute: 1_000_000 },
});
const hanging = await startReceiver(false);
const answering = await startReceiver(true);
try {
  const hostile = inboxClient(server.inbox.url, await server.createApiKey("inbox"));
  const wellBehaved = inboxClient(server.inbox.url, await server.createApiKey("inbox"));
  const hostileInbox = await podWithWebhooks(hostile, "hostile", Array(hostileEndpoints).fill(hanging.url));
  const goodInbox = await podWithWebhooks(wellBehaved, "neighbour", [answering.url]);

  await sendOne(hostile, hostileInbox);
  // The hostile pod's attempts are under way before the neighbour's event exists.
  while (hanging.held() === 0) {
    await hanging.nextArrival();
  }
  const started = performance.now();
  const arrived = answering.nextArrival();
  await sendOne(wellBehaved, goodInbox);
  const outcome = await Promise.race([
    arrived.then(() => "arrived" as const),
    new Promise<"gave up">((resolve) => setTimeout(() => resolve("gave up"), giveUpSeconds * 1000).unref()),
  ]);
  const seconds = ((performance.now() - started) / 1000).toFixed(3);
  out(`hostile endpoints: ${hostileEndpoints}`);
  out(
    outcome === "arrived"
      ? `neighbour's delivery arrived after ${seconds} s`
      : `neighbour's delivery had not arrived after ${seconds} s`,
  );
  out(`hostile attempts open at that moment: ${hanging.held()}; hostile attempts so far: ${hanging.arrived()}`);
} finally {
  await hanging.close();
  await answering.close();
  await server.close();
}
