import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EventSocketConstructor, InboxClient, WebhookEvent } from "@pigeonhole/inbox";
import { AuthenticationError, createInboxClient, EventStreamError } from "@pigeonhole/inbox";
import { createTestDatabase } from "@pigeonhole/postgres-testing/vitest";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { WebSocket as WsWebSocket } from "ws";
import { type Server, startServer } from "../../src/index.ts";
import { testBackend } from "../support/test-database.ts";

// The inbox client's live events (`inbox.events()`) against a real server over a real WebSocket on 127.0.0.1.
// Every test works in a tenant of its own, so its stream holds only the events it caused.

let server: Server;
beforeAll(async () => {
  server = await startServer({ database: ":memory:", inboxPort: 0, forumPort: 0, logger: false });
});
afterAll(async () => {
  await server?.close();
});

const WAIT_MS = 10_000;
let names = 0;
const uniqueName = (name: string) => `${name}-${++names}-${Math.random().toString(36).slice(2, 8)}`;

interface Tenant {
  client: InboxClient;
  from: string;
  to: string;
  /** Sends one message from `from` to `to` and answers its id. */
  send(subject: string): Promise<string>;
}

async function newTenant(on: Server = server, baseUrl = on.inbox.url): Promise<Tenant> {
  const client = createInboxClient({ baseUrl, apiKey: await on.createApiKey("inbox") });
  const from = (await client.post("/v0/inboxes", { body: { username: uniqueName("sender") } })).inbox_id;
  const to = (await client.post("/v0/inboxes", { body: { username: uniqueName("watcher") } })).inbox_id;
  const send = async (subject: string) =>
    (
      await client.post("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: { to, subject, text: subject },
      })
    ).message_id;
  return { client, from, to, send };
}

/** An event as `<event_type> <message_id>`, the message it is about. */
function describeEvent(event: WebhookEvent): string {
  switch (event.event_type) {
    case "message.received":
      return `${event.event_type} ${event.message.message_id}`;
    case "message.sent":
      return `${event.event_type} ${event.send.message_id}`;
    case "message.delivered":
      return `${event.event_type} ${event.delivery.message_id}`;
    case "message.delayed":
      return `${event.event_type} ${event.delay.message_id}`;
    case "message.bounced":
      return `${event.event_type} ${event.bounce.message_id}`;
    case "message.complained":
      return `${event.event_type} ${event.complaint.message_id}`;
  }
}

/** The next `count` events of `events`, leaving the loop after them; fails after `WAIT_MS`. */
async function take(events: AsyncIterable<WebhookEvent>, count: number): Promise<WebhookEvent[]> {
  const taken: WebhookEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Only ${taken.length} of ${count} events arrived.`)), WAIT_MS);
  });
  const reading = (async () => {
    for await (const event of events) {
      taken.push(event);
      if (taken.length === count) {
        break;
      }
    }
    return taken;
  })();
  try {
    return await Promise.race([reading, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The id of an event caused now, to subscribe `after`: what happens later is then replayed or live, never missed
 * however long a subscription takes. Sends marks until a stream hears one arrive, each mark once the last is heard
 * or given up on, and answers the id of the last mark's arrival, the last event the marks cause.
 */
async function mark(tenant: Tenant): Promise<string> {
  const controller = new AbortController();
  const filters = { event_types: ["message.received" as const], inbox_ids: [tenant.to] };
  const events = tenant.client.events({ ...filters, signal: controller.signal })[Symbol.asyncIterator]();
  try {
    let pending = events.next();
    for (let attempt = 0; attempt < 20; attempt++) {
      const id = await tenant.send(`mark ${attempt}`);
      const until = Date.now() + 1_000;
      while (Date.now() < until) {
        const waited = new Promise<undefined>((resolve) => setTimeout(resolve, until - Date.now()));
        const next = await Promise.race([pending, waited]);
        if (next === undefined || next.done) {
          break;
        }
        pending = events.next();
        if (next.value.event_type === "message.received" && next.value.message.message_id === id) {
          return next.value.event_id;
        }
      }
    }
    throw new Error("No mark was heard.");
  } finally {
    controller.abort();
  }
}

/** Sends `count` messages and answers the events they cause, as `describeEvent` writes them, in order. */
async function sendAll(tenant: Tenant, count: number, label: string): Promise<string[]> {
  const expected: string[] = [];
  for (let n = 0; n < count; n++) {
    const id = await tenant.send(`${label} ${n}`);
    expected.push(`message.sent ${id}`, `message.received ${id}`);
  }
  return expected;
}

/** A TCP relay in front of `port` whose open connections can be cut, as a network would drop them. */
async function startRelay(port: number) {
  const sockets = new Set<Socket>();
  const relay = createServer((inbound) => {
    const upstream = connect(port, "127.0.0.1");
    sockets.add(inbound).add(upstream);
    inbound.pipe(upstream).pipe(inbound);
    const drop = () => {
      inbound.destroy();
      upstream.destroy();
      sockets.delete(inbound);
      sockets.delete(upstream);
    };
    inbound.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const address = relay.address();
  if (address === null || typeof address === "string") {
    throw new Error("The relay has no port.");
  }
  return {
    url: `http://127.0.0.1:${address.port}`,
    /** Cuts every open connection; answers how many there were. */
    cut(): number {
      const count = sockets.size;
      for (const socket of sockets) {
        socket.destroy();
      }
      return count;
    },
    close: () => new Promise<void>((resolve) => relay.close(() => resolve())),
  };
}

describe("inbox.events()", () => {
  it("ready() resolves once the service listens: every message sent right after is heard", async () => {
    const tenant = await newTenant();
    const filters = { inbox_ids: [tenant.to], event_types: ["message.received" as const] };
    // Before the loop: ready() connects, and the loop goes on with that connection.
    const events = tenant.client.events(filters);
    await events.ready();
    const first = await sendAll(tenant, 5, "right away");
    expect((await take(events, 5)).map(describeEvent)).toEqual(first.filter((e) => e.startsWith("message.received")));

    // With the loop already started: ready() waits for the same subscription.
    const later = tenant.client.events(filters);
    const heard = take(later, 3);
    await later.ready();
    await later.ready();
    const second = await sendAll(tenant, 3, "after the loop");
    expect((await heard).map(describeEvent)).toEqual(second.filter((e) => e.startsWith("message.received")));

    // A refused subscription rejects ready() as it would reject the loop.
    const refused = tenant.client.events({ inbox_ids: ["nobody@pigeonhole.test"] });
    await expect(refused.ready()).rejects.toBeInstanceOf(EventStreamError);
  });

  it("delivers every event of the key in order, once, and the filters hold", async () => {
    const tenant = await newTenant();
    const after = await mark(tenant);
    const all = take(tenant.client.events({ after }), 6);
    const received = take(
      tenant.client.events({ after, inbox_ids: [tenant.to], event_types: ["message.received"] }),
      3,
    );
    const sent = take(tenant.client.events({ after, inbox_ids: [tenant.from] }), 3);
    const expected = await sendAll(tenant, 3, "hello");

    const events = await all;
    expectTypeOf(events).toEqualTypeOf<WebhookEvent[]>();
    expect(events.map(describeEvent)).toEqual(expected);
    expect(new Set(events.map((event) => event.event_id)).size).toBe(6);
    expect((await received).map(describeEvent)).toEqual(expected.filter((e) => e.startsWith("message.received")));
    expect((await sent).map(describeEvent)).toEqual(expected.filter((e) => e.startsWith("message.sent")));
    const [first] = await received;
    if (first?.event_type !== "message.received") {
      throw new Error("Expected message.received.");
    }
    expect(first.message).toMatchObject({ inbox_id: tenant.to, subject: "hello 0" });
  });

  it("hears another key's events never", async () => {
    const mine = await newTenant();
    const theirs = await newTenant();
    const after = await mark(mine);
    const events = take(mine.client.events({ after }), 2);
    await sendAll(theirs, 2, "theirs");
    const expected = await sendAll(mine, 1, "mine");
    expect((await events).map(describeEvent)).toEqual(expected);
  });

  it("reconnects after the network drops the connection and resumes: every event once, none lost", async () => {
    const relay = await startRelay(Number(new URL(server.inbox.url).port));
    try {
      const tenant = await newTenant(server, relay.url);
      const after = await mark(tenant);
      const events = tenant.client.events({ after })[Symbol.asyncIterator]();
      const expected = await sendAll(tenant, 3, "before");
      const seen: WebhookEvent[] = [];
      for (let n = 0; n < 2; n++) {
        const next = await events.next();
        if (!next.done) {
          seen.push(next.value);
        }
      }
      expect(relay.cut()).toBeGreaterThan(0);
      expected.push(...(await sendAll(tenant, 3, "after")));
      while (seen.length < expected.length) {
        const next = await events.next();
        if (next.done) {
          break;
        }
        seen.push(next.value);
      }
      await events.return?.();
      expect(seen.map(describeEvent)).toEqual(expected);
    } finally {
      await relay.close();
    }
  });

  it("reconnects when the server restarts on the same database and port, and misses nothing", async () => {
    const directory = mkdtempSync(join(tmpdir(), "pigeonhole-events-"));
    const database = testBackend() === "postgres" ? await createTestDatabase() : join(directory, "events.db");
    const options = { database, forumPort: 0, logger: false } as const;
    let first: Server | undefined = await startServer({ ...options, inboxPort: 0 });
    let second: Server | undefined;
    try {
      const inboxPort = Number(new URL(first.inbox.url).port);
      const tenant = await newTenant(first);
      const after = await mark(tenant);
      const events = tenant.client.events({ after })[Symbol.asyncIterator]();
      const expected = await sendAll(tenant, 2, "before");
      const seen: WebhookEvent[] = [];
      const firstEvent = await events.next();
      if (!firstEvent.done) {
        seen.push(firstEvent.value);
      }
      await first.close();
      first = undefined;
      second = await startServer({ ...options, inboxPort });
      expected.push(...(await sendAll(tenant, 2, "after")));
      while (seen.length < expected.length) {
        const next = await events.next();
        if (next.done) {
          break;
        }
        seen.push(next.value);
      }
      await events.return?.();
      expect(seen.map(describeEvent)).toEqual(expected);
    } finally {
      await first?.close();
      await second?.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("ends quietly and closes the socket when the signal aborts, waiting or not", async () => {
    const tenant = await newTenant();
    const sockets: InstanceType<typeof WebSocket>[] = [];
    // The global WebSocket, recorded to see its state after the loop.
    class Recorded extends WebSocket {
      constructor(url: string) {
        super(url);
        sockets.push(this);
      }
    }
    const controller = new AbortController();
    const after = await mark(tenant);
    const heard: WebhookEvent[] = [];
    const loop = (async () => {
      for await (const event of tenant.client.events({ after, signal: controller.signal, WebSocket: Recorded })) {
        heard.push(event);
      }
      return "ended";
    })();
    await sendAll(tenant, 1, "one");
    const deadline = Date.now() + WAIT_MS;
    while (heard.length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(heard).toHaveLength(2);
    // The loop now waits for a next event that never comes; the abort ends it.
    controller.abort();
    await expect(loop).resolves.toBe("ended");
    expect(sockets).toHaveLength(1);
    expect([WebSocket.CLOSING, WebSocket.CLOSED]).toContain(sockets[0]?.readyState);

    // A signal aborted before the loop starts opens nothing.
    const none = tenant.client.events({ signal: AbortSignal.abort(), WebSocket: Recorded });
    expect(await take(none, 1)).toEqual([]);
    expect(sockets).toHaveLength(1);
  });

  it("closes the socket when the loop is left with break", async () => {
    const tenant = await newTenant();
    const sockets: InstanceType<typeof WebSocket>[] = [];
    class Recorded extends WebSocket {
      constructor(url: string) {
        super(url);
        sockets.push(this);
      }
    }
    const after = await mark(tenant);
    const [event] = await Promise.all([
      take(tenant.client.events({ after, WebSocket: Recorded }), 1),
      sendAll(tenant, 1, "once"),
    ]);
    expect(event).toHaveLength(1);
    expect([WebSocket.CLOSING, WebSocket.CLOSED]).toContain(sockets[0]?.readyState);
  });

  it("works with the ws package's WebSocket, as on Node 20", async () => {
    expectTypeOf(WsWebSocket).toExtend<EventSocketConstructor>();
    const tenant = await newTenant();
    const after = await mark(tenant);
    const events = take(tenant.client.events({ after, WebSocket: WsWebSocket }), 2);
    const expected = await sendAll(tenant, 1, "ws");
    expect((await events).map(describeEvent)).toEqual(expected);
  });

  it("rejects with AuthenticationError when the key is refused", async () => {
    const client = createInboxClient({ baseUrl: server.inbox.url, apiKey: "not-a-key" });
    const error = await take(client.events(), 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401 });
  });

  it("rejects with EventStreamError when the service refuses the subscription", async () => {
    const tenant = await newTenant();
    const unknown = await take(tenant.client.events({ after: "evt_0000000000000000" }), 1).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(EventStreamError);
    expect(unknown).toMatchObject({ code: "EVENT_NOT_FOUND", type: "not_found_error", field: "after" });

    const other = await newTenant();
    const foreign = await take(tenant.client.events({ inbox_ids: [other.to] }), 1).catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(EventStreamError);
    expect(foreign).toMatchObject({ code: "NOT_FOUND", field: expect.stringMatching(/^inbox_ids/) });
  });
});
