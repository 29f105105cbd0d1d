import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectData, inboxClient, startTestServer, type TestServer } from "../test/support/test-server.ts";
import { type FanOutTargets, runFanOut } from "./fan-out.ts";

let test: TestServer;
let targets: FanOutTargets;
beforeAll(async () => {
  test = await startTestServer();
  const inboxKey = await test.server.createApiKey("inbox");
  const client = inboxClient(test.server.inbox.url, inboxKey);
  const inbox = expectData(await client.POST("/v0/inboxes", { body: { username: "fan-out" } }));
  targets = {
    subscribeUrl: test.server.inbox.url,
    sendUrl: test.server.inbox.url,
    inboxKey,
    inbox: inbox.inbox_id,
    serverPids: [process.pid],
  };
});
afterAll(async () => {
  await test?.server.close();
});

describe("runFanOut", () => {
  it("hears every sent message once on every subscriber and measures each receipt", async () => {
    const result = await runFanOut(targets, { subscribers: 4, messages: 10, intervalMs: 5 });
    expect(result).toMatchObject({ subscribers: 4, messages: 10, delivered: 40, lost: 0, repeated: 0 });
    expect(result.latencyMs.p50).toBeGreaterThan(0);
    expect(result.latencyMs.p99).toBeGreaterThanOrEqual(result.latencyMs.p50);
    expect(result.latencyMs.max).toBeGreaterThanOrEqual(result.latencyMs.p99);
    // An event cannot reach a subscriber before its send started, and the sends are 5 ms apart at least.
    expect(result.eventsPerSecond).toBeGreaterThan(0);
    expect(result.eventsPerSecond).toBeLessThan((40 / (9 * 5)) * 1000);
    expect(result.sendP50Ms).toBeGreaterThan(0);
    expect(result.cpu.servers[0]).toBeGreaterThan(0);
  });

  it("fails when the subscribers cannot subscribe, naming why", async () => {
    await expect(
      runFanOut(
        { ...targets, subscribeUrl: test.server.inbox.url, inboxKey: "not-a-key" },
        {
          subscribers: 2,
          messages: 1,
          intervalMs: 1,
        },
      ),
    ).rejects.toThrow(/A subscriber could not subscribe/);
    await expect(
      runFanOut({ ...targets, inbox: "nobody@pigeonhole.test" }, { subscribers: 2, messages: 1, intervalMs: 1 }),
    ).rejects.toThrow(/A subscriber could not subscribe: .*nobody@pigeonhole\.test/);
  });
});
