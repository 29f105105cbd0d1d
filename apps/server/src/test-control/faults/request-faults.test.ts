import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordingLogger } from "../../../test/support/recording-logger.ts";
import { testControlOf } from "../../../test/support/test-control-requests.ts";
import type { TestServer } from "../../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../../test/support/test-server.ts";

// Request faults over real HTTP: answers in place of the service, lost connections before and after the work, and
// latency; counted, listed, removed, and logged.

const { logger, lines: logged } = recordingLogger();

let t: TestServer;
let control: ReturnType<typeof testControlOf>;
beforeAll(async () => {
  t = await startTestServer({ logger });
  control = testControlOf(t.server);
});
afterAll(() => t.server.close());

const inboxKey = () => t.server.inbox.apiKey;
const listInboxes = (key = inboxKey()) =>
  fetch(`${t.server.inbox.url}/v0/inboxes`, { headers: { authorization: `Bearer ${key}` } });

describe("respond", () => {
  it("answers the next N matching requests with the status, headers and the service's envelope, then lets them by", async () => {
    const fault = await control.addFault({
      target: "request",
      match: { method: "GET", path: "/v0/inboxes" },
      times: 2,
      action: { type: "respond", status: 429, headers: { "Retry-After": "2" } },
    });
    expect(fault).toMatchObject({
      fault_id: expect.stringMatching(/^flt_[A-Za-z0-9]+$/),
      times: 2,
      remaining: 2,
      hits: 0,
    });
    for (let i = 0; i < 2; i++) {
      const answer = await listInboxes();
      expect(answer.status).toBe(429);
      expect(answer.headers.get("retry-after")).toBe("2");
      expect(answer.headers.get("x-request-id")).toMatch(/^req_/);
      expect(await answer.json()).toEqual({
        error: {
          type: "rate_limit_error",
          message: "Too Many Requests.",
          details: { field: null, code: "RATE_LIMIT_EXCEEDED" },
        },
      });
    }
    expect((await listInboxes()).status).toBe(200);
    expect((await control.fault(fault.fault_id)).body).toMatchObject({ remaining: 0, hits: 2 });
    const applied = logged.filter((line) => line.msg === "fault applied" && line.fault_id === fault.fault_id);
    expect(applied).toEqual([
      expect.objectContaining({ target: "request", action: "respond", method: "GET", path: "/v0/inboxes" }),
      expect.objectContaining({ target: "request", action: "respond", remaining: 0 }),
    ]);
  });

  it("answers a conflict as the service's own: a code its spec lists, and X-Should-Retry: false", async () => {
    await control.addFault({
      target: "request",
      match: { method: "GET", path: "/v0/inboxes" },
      times: 2,
      action: { type: "respond", status: 409 },
    });
    const conflict = await listInboxes();
    expect(conflict.status).toBe(409);
    expect(conflict.headers.get("x-should-retry")).toBe("false");
    expect(await conflict.json()).toEqual({
      error: { type: "conflict_error", message: "Conflict.", details: { field: null, code: "IDEMPOTENCY_KEY_REUSED" } },
    });
    await control.addFault({
      target: "request",
      match: { path: "/api/v1/posts" },
      action: { type: "respond", status: 409, headers: { "X-Should-Retry": "true" } },
    });
    const forum = await fetch(`${t.server.forum.url}/api/v1/posts`, {
      headers: { authorization: `Bearer ${t.server.forum.apiKey}` },
    });
    // The fault's own headers win.
    expect(forum.headers.get("x-should-retry")).toBe("true");
    expect(await forum.json()).toMatchObject({ success: false, code: "IDEMPOTENCY_KEY_REUSED" });
    expect((await listInboxes()).status).toBe(409);
  });

  it("answers the forum's envelope on a forum path, and a body when given", async () => {
    await control.addFault({
      target: "request",
      match: { path: "/api/v1/**" },
      action: { type: "respond", status: 503 },
    });
    await control.addFault({
      target: "request",
      match: { path: "/api/v1/posts" },
      action: { type: "respond", status: 500, body: { custom: true } },
    });
    const headers = { authorization: `Bearer ${t.server.forum.apiKey}` };
    const first = await fetch(`${t.server.forum.url}/api/v1/posts`, { headers });
    expect(first.status).toBe(503);
    expect(await first.json()).toMatchObject({ success: false, code: "INTERNAL_ERROR", error: "Service Unavailable." });
    const second = await fetch(`${t.server.forum.url}/api/v1/posts`, { headers });
    expect(second.status).toBe(500);
    expect(await second.json()).toEqual({ custom: true });
  });

  it("matches only the given API key, glob segments, and never test control itself", async () => {
    const other = await t.server.createApiKey("inbox");
    await control.addFault({
      target: "request",
      match: { path: "/v0/*", api_key: other },
      action: { type: "respond", status: 418 },
    });
    await control.addFault({ target: "request", match: { path: "/**" }, action: { type: "respond", status: 500 } });
    expect((await control.clock()).status).toBe(200);
    expect((await listInboxes(other)).status).toBe(418);
    expect((await listInboxes()).status).toBe(500);
    expect((await listInboxes()).status).toBe(200);
  });
});

describe("the fault list", () => {
  it("lists oldest first, gets, deletes one and all", async () => {
    const a = await control.addFault({ target: "mail", match: { to: "a@example.com" }, action: { type: "bounce" } });
    const b = await control.addFault({ target: "webhook", match: {}, times: 3, action: { type: "fail", status: 502 } });
    const listed = await control.call<{ faults: { fault_id: string }[] }>("GET", "/faults");
    const ids = listed.body.faults.map((fault) => fault.fault_id);
    expect(ids.indexOf(a.fault_id)).toBeLessThan(ids.indexOf(b.fault_id));
    expect((await control.call("DELETE", `/faults/${a.fault_id}`)).status).toBe(204);
    const gone = await control.fault(a.fault_id);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: { type: "not_found_error", details: { code: "NOT_FOUND" } } });
    expect((await control.call("DELETE", `/faults/${a.fault_id}`)).status).toBe(404);
    expect((await control.call("DELETE", "/faults")).status).toBe(204);
    expect((await control.call("GET", "/faults")).body).toEqual({ faults: [] });
  });
});

describe("drop and delay", () => {
  async function newInbox() {
    return expectData(await t.inbox.POST("/v0/inboxes", { body: { username: `drop-${crypto.randomUUID()}` } }))
      .inbox_id;
  }

  const send = (inboxId: string, idempotencyKey: string) =>
    fetch(`${t.server.inbox.url}/v0/inboxes/${encodeURIComponent(inboxId)}/messages`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${inboxKey()}`,
        "content-type": "application/json",
        "idempotency-key": idempotencyKey,
      },
      body: JSON.stringify({ to: "ada@example.com", subject: "lost answer", text: "hi" }),
    });

  /** The `request` log lines of the requests about one inbox, oldest first. */
  const requestLines = (inboxId: string) =>
    logged.filter((line) => line.msg === "request" && String(line.path).includes(inboxId.split("@")[0] ?? inboxId));

  const sentCount = async (inboxId: string) =>
    expectData(await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: inboxId } } })).count;

  it("before: the client sees a connection error and nothing was done", async () => {
    const inboxId = await newInbox();
    await control.addFault({
      target: "request",
      match: { method: "POST", path: "/v0/inboxes/*/messages" },
      action: { type: "drop", when: "before" },
    });
    await expect(send(inboxId, "k-before")).rejects.toThrow(TypeError);
    expect(await sentCount(inboxId)).toBe(0);
    expect(requestLines(inboxId)).toEqual([
      expect.objectContaining({ method: "POST", dropped: true }),
      expect.objectContaining({ method: "GET", status: 200 }),
    ]);
  });

  it("after: the work is committed, the answer lost, and a retry with the Idempotency-Key returns it once", async () => {
    const inboxId = await newInbox();
    await control.addFault({
      target: "request",
      match: { method: "POST", path: "/v0/inboxes/*/messages" },
      action: { type: "drop", when: "after" },
    });
    const lost = await send(inboxId, "k-after").then(
      () => "answered",
      (error: unknown) => error,
    );
    expect(lost).toBeInstanceOf(TypeError);
    expect(await sentCount(inboxId)).toBe(1);
    // The handler answered 200, but nobody received it: the line names no status.
    const [dropped] = requestLines(inboxId);
    expect(dropped).toMatchObject({ method: "POST", dropped: true });
    expect(dropped).not.toHaveProperty("status");
    const retried = await send(inboxId, "k-after");
    expect(retried.status).toBe(200);
    const { message_id } = (await retried.json()) as { message_id: string };
    const list = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: inboxId } } }),
    );
    expect(list.messages.map((message) => message.message_id)).toEqual([message_id]);
  });

  it("delay: the request is handled normally after the delay", async () => {
    await control.addFault({
      target: "request",
      match: { method: "GET", path: "/v0/inboxes" },
      action: { type: "delay", ms: 300 },
    });
    const started = performance.now();
    const delayed = await listInboxes();
    const took = performance.now() - started;
    expect(delayed.status).toBe(200);
    expect(took).toBeGreaterThanOrEqual(290);
    const quick = performance.now();
    await listInboxes();
    expect(performance.now() - quick).toBeLessThan(250);
  });
});
