import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { StreamConnection } from "../support/event-stream-client.ts";
import { connectStream, refusedUpgrade } from "../support/event-stream-client.ts";
import { recordingLogger } from "../support/recording-logger.ts";
import type { TestServer } from "../support/test-server.ts";
import { expectData, startTestServer } from "../support/test-server.ts";

// The live event stream under a hostile or careless client: one key cannot hold connections without bound, and a
// client that stops reading costs the server a bounded queue, not a copy of every event sent to it.

const CAP = 3;
const recorder = recordingLogger();
let t: TestServer;
let key: string;
let alice: string;
let bob: string;
beforeAll(async () => {
  t = await startTestServer({ websocketConnectionsPerKey: CAP, logger: recorder.logger });
  key = t.server.inbox.apiKey;
  alice = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "ws-alice" } })).inbox_id;
  bob = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "ws-bob" } })).inbox_id;
});
afterAll(async () => {
  await t.server.close();
});

async function subscribed(connection: StreamConnection, subscription: Record<string, unknown> = {}) {
  connection.send({ type: "subscribe", ...subscription });
  const [answer] = await connection.waitFor(1);
  expect(answer).toMatchObject({ type: "subscribed" });
  return connection;
}

const send = async (subject: string, text = subject) =>
  expectData(
    await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: alice } },
      body: { to: bob, subject, text },
    }),
  ).message_id;

const receivedIds = (connection: StreamConnection) =>
  connection.messages
    .filter((message) => message.type === "event")
    .map((message) => (message.message as { message_id: string }).message_id);

describe("live event connections per key", () => {
  it("refuses the connection beyond the cap with 429 TOO_MANY_CONNECTIONS; other keys and freed slots connect", async () => {
    const held = await Promise.all(Array.from({ length: CAP }, () => connectStream(t.server.inbox.url, key)));
    const refused = await refusedUpgrade(`${t.server.inbox.url}/v0/ws`, { Authorization: `Bearer ${key}` });
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toMatch(/^\d+$/);
    expect(JSON.parse(refused.body)).toEqual({
      error: {
        type: "rate_limit_error",
        message: expect.any(String),
        details: { field: null, code: "TOO_MANY_CONNECTIONS" },
      },
    });
    // The key in the query counts the same.
    expect((await refusedUpgrade(`${t.server.inbox.url}/v0/ws?api_key=${key}`)).status).toBe(429);

    // Another pod's key is not held back by this one's connections.
    const otherKey = await t.server.createApiKey("inbox");
    (await subscribed(await connectStream(t.server.inbox.url, otherKey))).ws.close();

    // A closed connection frees its slot once the server has seen it close.
    const [first] = held;
    first?.ws.close();
    await first?.closed;
    const reopened = await vi.waitFor(() => connectStream(t.server.inbox.url, key), { timeout: 5_000, interval: 50 });
    for (const connection of [...held.slice(1), reopened]) {
      connection.ws.close();
      await connection.closed;
    }
  });
});

describe("a client that stops reading", () => {
  it("is closed 1013 as soon as an event does not fit its queue, and resumes with after without losing any", async () => {
    const stream = await subscribed(await connectStream(t.server.inbox.url, key), {
      inbox_ids: [bob],
      event_types: ["message.received"],
    });
    const sent = [await send("before the stall")];
    await stream.waitFor(2);
    stream.ws.pause();
    // Messages of a megabyte until the server gives up on the reader: the kernel's socket buffers take the first few.
    const big = "x".repeat(1_000_000);
    const tooSlow = () => recorder.lines.find((line) => line.msg === "event stream reader too slow");
    for (let i = 0; i < 40 && !tooSlow(); i++) {
      sent.push(await send(`large ${i}`, big));
    }
    const line = await vi.waitFor(
      () => {
        const found = tooSlow();
        expect(found).toBeDefined();
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    // What the server held for the reader when it closed: the bound, never a frame past it.
    expect(line?.queued_bytes).toBeLessThanOrEqual(1024 * 1024);
    stream.ws.resume();
    expect(await stream.closed).toBe(1013);
    const heard = receivedIds(stream);
    expect(heard.length).toBeLessThan(sent.length);

    const lastEvent = stream.messages.filter((message) => message.type === "event").at(-1)?.event_id;
    const resumed = await subscribed(await connectStream(t.server.inbox.url, key), {
      inbox_ids: [bob],
      event_types: ["message.received"],
      after: lastEvent,
    });
    await resumed.waitFor(1 + sent.length - heard.length, 20_000);
    expect([...heard, ...receivedIds(resumed)]).toEqual(sent);
    resumed.ws.close();
  }, 60_000);
});
