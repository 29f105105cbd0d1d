import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StreamConnection } from "../../../test/support/event-stream-client.ts";
import { connectStream, refusedUpgrade } from "../../../test/support/event-stream-client.ts";
import type { InboxClient, TestServer } from "../../../test/support/test-server.ts";
import { expectData, inboxClient, startTestServer } from "../../../test/support/test-server.ts";
import { startWebhookReceiver } from "../../../test/support/webhook-receiver.ts";

let t: TestServer;
let key: string;
let otherKey: string;
let other: InboxClient;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let alice: string;
let bob: string;
let stranger: string;
beforeAll(async () => {
  t = await startTestServer();
  key = t.server.inbox.apiKey;
  otherKey = await t.server.createApiKey("inbox");
  other = inboxClient(t.server.inbox.url, otherKey);
  receiver = await startWebhookReceiver(() => 200);
  alice = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "alice" } })).inbox_id;
  bob = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "bob" } })).inbox_id;
  stranger = expectData(await other.POST("/v0/inboxes", { body: { username: "stranger" } })).inbox_id;
});
afterAll(async () => {
  await t.server.close();
  await receiver.close();
});

const send = async (client: InboxClient, from: string, to: string, subject: string) =>
  expectData(
    await client.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: from } },
      body: { to, subject, text: subject },
    }),
  );

async function subscribed(connection: StreamConnection, subscription: Record<string, unknown> = {}) {
  connection.send({ type: "subscribe", ...subscription });
  const [answer] = await connection.waitFor(1);
  expect(answer).toMatchObject({ type: "subscribed" });
  return connection;
}

const eventsOf = (connection: StreamConnection) => connection.messages.filter((message) => message.type === "event");
/** The message an event is about: `message` on message.received, `send` on message.sent. */
const messageIdOf = (event: Record<string, unknown>) =>
  ((event.message ?? event.send) as { message_id: string } | undefined)?.message_id;

describe("the live event stream", () => {
  it("sends sent and received events with the exact body of the webhook delivery", async () => {
    const webhook = expectData(await t.inbox.POST("/v0/webhooks", { body: { url: receiver.url } }));
    const stream = await subscribed(await connectStream(t.server.inbox.url, key));
    expect(stream.messages[0]).toEqual({ type: "subscribed", event_types: null, inbox_ids: null });
    await send(t.inbox, alice, bob, "Hello Bob");
    const [, sent, received] = await stream.waitFor(3);
    expect(sent).toMatchObject({ type: "event", event_type: "message.sent" });
    expect(received).toMatchObject({ type: "event", event_type: "message.received" });
    await receiver.waitFor(2);
    const bodies = receiver.deliveries.map((delivery) => delivery.body);
    // Byte for byte what the webhook received, in the same order.
    const frames = stream.messages.slice(1).map((message) => JSON.stringify(message));
    expect(frames.toSorted()).toEqual(bodies.slice(-2).toSorted());
    stream.ws.close();
    await t.inbox.DELETE("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: webhook.webhook_id } } });
  });

  it("filters by event type and inbox, and authenticates by query parameter", async () => {
    const stream = await subscribed(await connectStream(t.server.inbox.url, key, "query"), {
      event_types: ["message.received"],
      inbox_ids: [bob.toUpperCase()],
    });
    expect(stream.messages[0]).toEqual({ type: "subscribed", event_types: ["message.received"], inbox_ids: [bob] });
    await send(t.inbox, bob, alice, "To Alice");
    await send(t.inbox, alice, bob, "Only this one");
    await stream.waitFor(2);
    await sleep(300);
    const events = eventsOf(stream);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      event_type: "message.received",
      message: { inbox_id: bob, subject: "Only this one" },
    });
    stream.ws.close();
  });

  it("keeps commit order under a burst of sends, each event once", async () => {
    const stream = await subscribed(await connectStream(t.server.inbox.url, key), { event_types: ["message.sent"] });
    const sends = 30;
    const results = await Promise.all(
      Array.from({ length: sends }, (_, i) => send(t.inbox, i % 2 ? alice : bob, "nobody@example.com", `burst ${i}`)),
    );
    await stream.waitFor(sends + 1);
    const ids = eventsOf(stream).map(messageIdOf);
    expect(new Set(ids).size).toBe(sends);
    expect(ids.toSorted()).toEqual(results.map((result) => result.message_id).toSorted());
    // The order is the stored order: replaying from the start of the burst gives the same sequence.
    const firstId = eventsOf(stream)[0]?.event_id as string;
    const replay = await subscribed(await connectStream(t.server.inbox.url, key), {
      event_types: ["message.sent"],
      after: firstId,
    });
    await replay.waitFor(sends);
    expect(eventsOf(replay).map((event) => event.event_id)).toEqual(
      eventsOf(stream)
        .slice(1)
        .map((event) => event.event_id),
    );
    stream.ws.close();
    replay.ws.close();
  });

  it("resumes after a dropped connection with nothing lost or repeated", async () => {
    const first = await subscribed(await connectStream(t.server.inbox.url, key), { inbox_ids: [alice] });
    await send(t.inbox, alice, "x@example.com", "before 1");
    await send(t.inbox, alice, "x@example.com", "before 2");
    await first.waitFor(3);
    first.ws.terminate();
    const last = eventsOf(first).at(-1)?.event_id as string;
    const expected: string[] = [];
    for (let i = 0; i < 5; i++) {
      expected.push((await send(t.inbox, alice, "x@example.com", `while away ${i}`)).message_id);
    }
    const second = await subscribed(await connectStream(t.server.inbox.url, key), { inbox_ids: [alice], after: last });
    expected.push((await send(t.inbox, alice, "x@example.com", "live again")).message_id);
    await second.waitFor(7);
    await sleep(300);
    expect(eventsOf(second).map(messageIdOf)).toEqual(expected);
    second.ws.close();
  });

  it("answers EVENT_NOT_FOUND for an unknown or foreign event and closes 1008", async () => {
    const stream = await connectStream(t.server.inbox.url, key);
    stream.send({ type: "subscribe", after: "evt_doesnotexist" });
    const [error] = await stream.waitFor(1);
    expect(error).toEqual({
      type: "error",
      error: {
        type: "not_found_error",
        message: expect.any(String),
        details: { field: "after", code: "EVENT_NOT_FOUND" },
      },
    });
    expect(await stream.closed).toBe(1008);
  });

  it("keeps pods apart: another key's inbox is NOT_FOUND and its events never arrive", async () => {
    const refused = await connectStream(t.server.inbox.url, key);
    refused.send({ type: "subscribe", inbox_ids: [alice, stranger] });
    const [error] = await refused.waitFor(1);
    expect(error).toMatchObject({ type: "error", error: { details: { field: "inbox_ids.1", code: "NOT_FOUND" } } });
    expect(await refused.closed).toBe(1008);

    const mine = await subscribed(await connectStream(t.server.inbox.url, key));
    const theirs = await subscribed(await connectStream(t.server.inbox.url, otherKey));
    const secret = await send(other, stranger, "x@example.com", "secret");
    const own = await send(t.inbox, alice, "x@example.com", "mine");
    await theirs.waitFor(2);
    await mine.waitFor(2);
    await sleep(300);
    expect(eventsOf(mine).map(messageIdOf)).toEqual([own.message_id]);
    expect(eventsOf(theirs).map(messageIdOf)).toEqual([secret.message_id]);
    // Another pod's event id is unknown to this key.
    const foreign = await connectStream(t.server.inbox.url, key);
    foreign.send({ type: "subscribe", after: eventsOf(theirs)[0]?.event_id });
    expect((await foreign.waitFor(1))[0]).toMatchObject({ error: { details: { code: "EVENT_NOT_FOUND" } } });
    mine.ws.close();
    theirs.ws.close();
  });

  it("closes 1008 on bad JSON, an invalid subscription and a second subscribe", async () => {
    const badJson = await connectStream(t.server.inbox.url, key);
    badJson.send("{nope");
    expect((await badJson.waitFor(1))[0]).toMatchObject({
      error: { type: "validation_error", details: { code: "INVALID_JSON" } },
    });
    expect(await badJson.closed).toBe(1008);

    const invalid = await connectStream(t.server.inbox.url, key);
    invalid.send({ type: "subscribe", event_types: ["message.deleted"] });
    expect((await invalid.waitFor(1))[0]).toMatchObject({
      error: { details: { field: "event_types.0", code: "INVALID_VALUE" } },
    });
    expect(await invalid.closed).toBe(1008);

    const twice = await subscribed(await connectStream(t.server.inbox.url, key));
    twice.send({ type: "subscribe" });
    expect((await twice.waitFor(2))[1]).toMatchObject({ error: { details: { code: "INVALID_VALUE" } } });
    expect(await twice.closed).toBe(1008);
  });

  it("refuses a bad key with 401 and a plain GET with 426, in the envelope", async () => {
    const url = `${t.server.inbox.url}/v0/ws`;
    const bad = await refusedUpgrade(url, { Authorization: "Bearer nope" });
    expect(bad.status).toBe(401);
    expect(JSON.parse(bad.body)).toMatchObject({
      error: { type: "authentication_error", details: { code: "INVALID_API_KEY" } },
    });
    const badQuery = await refusedUpgrade(`${url}?api_key=nope`);
    expect(badQuery.status).toBe(401);
    const missing = await refusedUpgrade(url);
    expect(JSON.parse(missing.body)).toMatchObject({ error: { details: { code: "MISSING_API_KEY" } } });

    const plain = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
    expect(plain.status).toBe(426);
    expect(await plain.json()).toMatchObject({
      error: { type: "validation_error", details: { code: "UPGRADE_REQUIRED" } },
    });
  });

  it("counts the upgrade against the key's rate limit", async () => {
    const limited = await startTestServer({ limits: { inboxRequestsPerMinute: 2 } });
    try {
      const url = `${limited.server.inbox.url}/v0/ws`;
      const headers = { Authorization: `Bearer ${limited.server.inbox.apiKey}` };
      (await connectStream(limited.server.inbox.url, limited.server.inbox.apiKey)).ws.close();
      (await connectStream(limited.server.inbox.url, limited.server.inbox.apiKey)).ws.close();
      const third = await refusedUpgrade(url, headers);
      expect(third.status).toBe(429);
      expect(JSON.parse(third.body)).toMatchObject({ error: { details: { code: "RATE_LIMIT_EXCEEDED" } } });
    } finally {
      await limited.server.close();
    }
  });

  it("deleting an inbox deletes its events: resuming from one of them is EVENT_NOT_FOUND", async () => {
    const doomed = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "doomed-events" } })).inbox_id;
    const stream = await subscribed(await connectStream(t.server.inbox.url, key), { inbox_ids: [doomed] });
    await send(t.inbox, doomed, "x@example.com", "gone");
    const eventId = (await stream.waitFor(2))[1]?.event_id;
    stream.ws.close();
    await t.inbox.DELETE("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: doomed } } });
    const resumed = await connectStream(t.server.inbox.url, key);
    resumed.send({ type: "subscribe", after: eventId });
    expect((await resumed.waitFor(1))[0]).toMatchObject({ error: { details: { code: "EVENT_NOT_FOUND" } } });
  });

  it("closes every connection 1001 when the server shuts down", async () => {
    const own = await startTestServer();
    const waiting = await connectStream(own.server.inbox.url, own.server.inbox.apiKey);
    const listening = await subscribed(await connectStream(own.server.inbox.url, own.server.inbox.apiKey));
    const closing = own.server.close();
    expect(await waiting.closed).toBe(1001);
    expect(await listening.closed).toBe(1001);
    await closing;
  });
});
