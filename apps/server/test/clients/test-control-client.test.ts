import { createInboxClient, type InboxClient, RateLimitError } from "@pigeonhole/inbox";
import {
  AuthenticationError,
  BadRequestError,
  createTestControl,
  NotFoundError,
  type TestControl,
  WaitTimedOutError,
} from "@pigeonhole/test-control";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Server, startServer } from "../../src/index.ts";
import { newTestDatabase } from "../support/test-database.ts";
import { startWebhookReceiver } from "../support/webhook-receiver.ts";

// The test-control client (`@pigeonhole/test-control`, through its public exports only) against a real server over
// HTTP on 127.0.0.1. Every test works in a tenant (API key) of its own; faults are the server's, so each test
// removes its own, and the test that wipes everything runs last.

const KEY = "test-control-client-key";

let server: Server;
let tc: TestControl;
beforeAll(async () => {
  server = await startServer({
    database: await newTestDatabase(),
    inboxPort: 0,
    forumPort: 0,
    logger: false,
    allowPrivateWebhooks: true,
    testControl: { key: KEY },
  });
  tc = createTestControl({ baseUrl: server.inbox.url, key: KEY });
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  await tc?.faults.clear();
});

let names = 0;
/** An inbox username no other test uses: addresses are unique across tenants. */
const uniqueName = (name: string) => `${name}-${++names}-${Math.random().toString(36).slice(2, 8)}`;

interface Tenant {
  apiKey: string;
  inbox: InboxClient;
  from: string;
  to: string;
}

/** A new API key with two inboxes of its own, `from` and `to`. */
async function newTenant(): Promise<Tenant> {
  const apiKey = await server.createApiKey("inbox");
  const inbox = createInboxClient({ baseUrl: server.inbox.url, apiKey });
  const from = (await inbox.post("/v0/inboxes", { body: { username: uniqueName("sender") } })).inbox_id;
  const to = (await inbox.post("/v0/inboxes", { body: { username: uniqueName("reader") } })).inbox_id;
  return { apiKey, inbox, from, to };
}

const send = (tenant: Tenant, subject: string, text = subject) =>
  tenant.inbox.post("/v0/inboxes/{inbox_id}/messages", {
    params: { path: { inbox_id: tenant.from } },
    body: { to: tenant.to, subject, text },
  });

describe("the key", () => {
  it("is its own: a wrong key and an Inbox API key are refused with AuthenticationError", async () => {
    const { apiKey } = await newTenant();
    for (const key of ["not-the-key", apiKey]) {
      const refused = await createTestControl({ baseUrl: server.inbox.url, key, maxRetries: 0 })
        .clock.get()
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(AuthenticationError);
      expect(refused).toMatchObject({ status: 401, service: "test-control" });
    }
  });

  it("reaches the same test control on the forum port", async () => {
    const onForum = createTestControl({ baseUrl: server.forum.url, key: KEY });
    const fault = await tc.faults.add({
      target: "mail",
      match: { to: "nobody@example.com" },
      action: { type: "bounce" },
    });
    expect((await onForum.faults.list()).map((listed) => listed.fault_id)).toEqual([fault.fault_id]);
  });
});

describe("faults", () => {
  it("answers the next matching request as the fault says, counts it, then lets requests through", async () => {
    const tenant = await newTenant();
    const fault = await tc.faults.add({
      target: "request",
      match: { method: "GET", path: "/v0/inboxes", api_key: tenant.apiKey },
      action: { type: "respond", status: 429, headers: { "Retry-After": "2" } },
    });
    expect(fault).toMatchObject({ target: "request", times: 1, remaining: 1, hits: 0 });
    expect(fault.fault_id).toMatch(/^flt_/);

    const limited = await tenant.inbox.get("/v0/inboxes", { maxRetries: 0 }).catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ status: 429, retryAfter: 2 });
    expect((await tenant.inbox.get("/v0/inboxes")).inboxes).toHaveLength(2);

    expect(await tc.faults.get(fault.fault_id)).toMatchObject({ remaining: 0, hits: 1 });
  });

  it("lets the inbox client's retry get past a 503", async () => {
    const tenant = await newTenant();
    const fault = await tc.faults.add({
      target: "request",
      match: { path: "/v0/inboxes/*", api_key: tenant.apiKey },
      times: 1,
      action: { type: "respond", status: 503, headers: { "Retry-After": "0" } },
    });
    const read = await tenant.inbox.get("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: tenant.to } } });
    expect(read.inbox_id).toBe(tenant.to);
    expect(await tc.faults.get(fault.fault_id)).toMatchObject({ remaining: 0, hits: 1 });
  });

  it("loses the answer of a send after the server stored it, and the idempotent replay sends it once", async () => {
    const tenant = await newTenant();
    await tc.faults.add({
      target: "request",
      match: { method: "POST", path: "/v0/inboxes/*/messages", api_key: tenant.apiKey },
      action: { type: "drop", when: "after" },
    });
    const sent = await send(tenant, "Sent once");
    const { messages } = await tenant.inbox.get("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: tenant.to } },
    });
    expect(messages.map((message) => message.message_id)).toEqual([sent.message_id]);
  });

  it("lists every fault oldest first, removes one, and clears them all", async () => {
    const first = await tc.faults.add({
      target: "webhook",
      match: { event_type: "message.received" },
      times: 2,
      action: { type: "fail", status: 502 },
    });
    const second = await tc.faults.add({
      target: "mail",
      match: { to: "someone@example.com" },
      action: { type: "delay" },
    });
    const third = await tc.faults.add({
      target: "request",
      match: { path: "/api/v1/**" },
      action: { type: "delay", ms: 1 },
    });
    expect(first).toMatchObject({ target: "webhook", times: 2, remaining: 2, action: { type: "fail", status: 502 } });
    expect(second).toMatchObject({ target: "mail", match: { to: "someone@example.com" }, times: 1 });
    expect((await tc.faults.list()).map((fault) => fault.fault_id)).toEqual([
      first.fault_id,
      second.fault_id,
      third.fault_id,
    ]);

    await tc.faults.remove(second.fault_id);
    expect((await tc.faults.list()).map((fault) => fault.fault_id)).toEqual([first.fault_id, third.fault_id]);
    await expect(tc.faults.get(second.fault_id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(tc.faults.remove(second.fault_id)).rejects.toBeInstanceOf(NotFoundError);

    await tc.faults.clear();
    expect(await tc.faults.list()).toEqual([]);
  });

  it("refuses a fault the spec does not allow with BadRequestError", async () => {
    const refused = await tc.faults
      .add({ target: "request", match: { path: "/v0/inboxes" }, action: { type: "respond", status: 200 } })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect(refused).toMatchObject({ status: 400, body: { error: { type: "validation_error" } } });
  });
});

describe("waitForMessage and extract", () => {
  it("answers with a message that arrives while it waits, with its links and codes", async () => {
    const tenant = await newTenant();
    const { now } = await tc.clock.get();
    const waiting = tc.waitForMessage({ inbox_id: tenant.to, subject: "sign-in", since: now, timeout_ms: 10_000 });
    const sent = await send(
      tenant,
      "Your sign-in code",
      "Use 482913 or open https://app.example.com/verify?t=abc to sign in",
    );

    const { message, links, codes } = await waiting;
    expect(message).toMatchObject({ inbox_id: tenant.to, message_id: sent.message_id });
    expect(message.labels).toContain("received");
    expect(links).toEqual(["https://app.example.com/verify?t=abc"]);
    expect(codes).toEqual(["482913"]);

    await expect(tc.extract(tenant.to, sent.message_id)).resolves.toEqual({ links, codes });
  });

  it("answers at once with a message already stored, filtered by sender and label", async () => {
    const tenant = await newTenant();
    const sent = await send(tenant, "Already here");
    const { message } = await tc.waitForMessage({ from: tenant.from, label: ["sent"], timeout_ms: 0 });
    expect(message).toMatchObject({ inbox_id: tenant.from, message_id: sent.message_id });
  });

  it("throws WaitTimedOutError when nothing matches in time", async () => {
    const started = performance.now();
    const error = await tc
      .waitForMessage({ subject: uniqueName("never-sent"), timeout_ms: 200 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WaitTimedOutError);
    expect(error).toMatchObject({ status: 404, code: "WAIT_TIMED_OUT" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it("throws NotFoundError when extracting from a message the inbox does not hold", async () => {
    const tenant = await newTenant();
    await expect(tc.extract(tenant.to, "<missing@pigeonhole.test>")).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("waitForWebhookDelivery and the clock", () => {
  it("follows a failed delivery to its retry once the clock passes it", async () => {
    const receiver = await startWebhookReceiver(() => 204);
    try {
      const tenant = await newTenant();
      const hook = await tenant.inbox.post("/v0/webhooks", {
        body: { url: receiver.url, event_types: ["message.received"], inbox_ids: [tenant.to] },
      });
      await tc.faults.add({ target: "webhook", match: { webhook_id: hook.webhook_id }, action: { type: "fail" } });
      await send(tenant, "Retried on time");

      const pending = await firstAttemptOf(hook.webhook_id);
      expect(pending).toMatchObject({ status: "pending", event_type: "message.received" });
      expect(pending.attempts).toEqual([expect.objectContaining({ status_code: 503 })]);
      expect(receiver.deliveries).toHaveLength(0);

      // The first retry is due 5 s after the failure: the clock gets there without waiting.
      await tc.clock.advance({ seconds: 5 });
      const succeeded = await tc.waitForWebhookDelivery({
        webhook_id: hook.webhook_id,
        status: "succeeded",
        timeout_ms: 10_000,
      });
      expect(succeeded.delivery_id).toBe(pending.delivery_id);
      expect(succeeded.attempts.map((attempt) => attempt.status_code)).toEqual([503, 204]);
      expect(receiver.deliveries).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("reads, freezes, advances and sets the clock, and never lets it go back", async () => {
    const before = await tc.clock.get();
    expect(Math.abs(Date.parse(before.now) - Date.now() - before.offset_ms)).toBeLessThan(1_000);

    const frozen = await tc.clock.set({ frozen: true });
    expect(frozen.frozen).toBe(true);
    const advanced = await tc.clock.advance({ days: 1, ms: 5 });
    expect(Date.parse(advanced.now) - Date.parse(frozen.now)).toBe(86_400_005);
    expect((await tc.clock.get()).now).toBe(advanced.now);

    const target = new Date(Date.parse(advanced.now) + 60_000);
    expect((await tc.clock.set({ now: target })).now).toBe(target.toISOString());
    const backwards = await tc.clock.set({ now: before.now }).catch((error: unknown) => error);
    expect(backwards).toBeInstanceOf(BadRequestError);
    expect(backwards).toMatchObject({ code: "CLOCK_BACKWARDS" });

    const running = await tc.clock.set({ frozen: false });
    expect(running).toMatchObject({ frozen: false, now: expect.any(String) });
    expect(running.offset_ms).toBeGreaterThan(86_400_000);
  });
});

describe("reset", () => {
  it("wipes one key's data and leaves the others'", async () => {
    const wiped = await newTenant();
    const kept = await newTenant();
    await tc.reset({ api_key: wiped.apiKey });
    expect((await wiped.inbox.get("/v0/inboxes")).inboxes).toEqual([]);
    expect((await kept.inbox.get("/v0/inboxes")).inboxes).toHaveLength(2);
  });

  it("wipes everything, the faults and the clock's offset, and keeps the keys", async () => {
    const tenant = await newTenant();
    await tc.faults.add({ target: "mail", match: { to: "anyone@example.com" }, action: { type: "bounce" } });
    await tc.clock.advance({ hours: 1 });

    await tc.reset();
    expect((await tenant.inbox.get("/v0/inboxes")).inboxes).toEqual([]);
    expect(await tc.faults.list()).toEqual([]);
    expect(await tc.clock.get()).toMatchObject({ frozen: false, offset_ms: 0 });
  });
});

/**
 * The webhook's newest delivery once its first attempt is recorded. A delivery is found as soon as it is created,
 * before its first attempt, and a failed attempt leaves it pending: so this looks again, a bounded number of times.
 */
async function firstAttemptOf(webhookId: string) {
  await tc.waitForWebhookDelivery({ webhook_id: webhookId, timeout_ms: 10_000 });
  for (let tries = 0; tries < 50; tries++) {
    const delivery = await tc.waitForWebhookDelivery({ webhook_id: webhookId, timeout_ms: 0 });
    if (delivery.attempts.length > 0) {
      return delivery;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`No attempt of a delivery to ${webhookId} was recorded within 1 s.`);
}
