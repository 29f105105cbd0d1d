import { fakeFetch, type Step } from "@pigeonhole/fake-fetch";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  BadRequestError,
  type Clock,
  createTestControl,
  type Fault,
  InternalServerError,
  NotFoundError,
  PigeonholeError,
  type TestControlOptions,
  type WaitForMessageResponse,
  WaitTimedOutError,
  type WebhookDelivery,
} from "./index.js";

const clock: Clock = { now: "2026-11-22T09:30:00.000Z", frozen: false, offset_ms: 0 };

const fault: Fault = {
  fault_id: "flt_1",
  target: "request",
  match: { method: "POST", path: "/v0/inboxes/*/messages" },
  action: { type: "respond", status: 429, headers: { "Retry-After": "2" } },
  times: 1,
  remaining: 1,
  hits: 0,
  created_at: clock.now,
};

const delivery: WebhookDelivery = {
  delivery_id: "dlv_1",
  webhook_id: "wh_1",
  event_id: "evt_1",
  event_type: "message.received",
  status: "succeeded",
  attempts: [{ attempted_at: clock.now, status_code: 204, error: null, latency_ms: 3 }],
  next_attempt_at: null,
  created_at: clock.now,
  updated_at: clock.now,
};

const waited: WaitForMessageResponse = {
  message: {
    inbox_id: "ada@pigeonhole.test",
    thread_id: "thd_1",
    message_id: "<m1@pigeonhole.test>",
    labels: ["received", "unread"],
    timestamp: clock.now,
    from: "no-reply@app.example.com",
    to: ["ada@pigeonhole.test"],
    cc: [],
    bcc: [],
    reply_to: [],
    subject: "Your code",
    preview: "Your code is 482913",
    text: "Your code is 482913",
    html: null,
    attachments: [],
    in_reply_to: null,
    references: [],
    headers: {},
    size: 120,
    deliveries: [],
    created_at: clock.now,
    updated_at: clock.now,
  },
  links: [],
  codes: ["482913"],
};

/** Test control's error envelope, as the server sends it. */
function envelope(status: number, type: string, code: string, message: string, field: string | null = null) {
  return Response.json(
    { error: { type, message, details: { field, code } } },
    { status, headers: { "x-request-id": `req_${status}`, "retry-after-ms": "0" } },
  );
}

const timedOut = () => envelope(404, "not_found_error", "WAIT_TIMED_OUT", "Nothing matched within 250 ms.");

const control = (steps: Step[] = [], options: TestControlOptions = {}) => {
  const fake = fakeFetch(steps);
  return { tc: createTestControl({ fetch: fake.fetch, ...options }), requests: fake.requests };
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.useRealTimers();
});

describe("createTestControl", () => {
  it("sends a local server's default key to a local server's inbox port", async () => {
    vi.stubEnv("PIGEONHOLE_TEST_CONTROL_KEY", "");
    vi.stubEnv("PIGEONHOLE_TEST_CONTROL_URL", "");
    const { tc, requests } = control([Response.json(clock)]);
    await tc.clock.get();
    expect(requests[0]?.url.href).toBe("http://127.0.0.1:4010/_test/clock");
    expect(requests[0]?.headers.get("authorization")).toBe("Bearer pigeonhole-test-control-dev");
  });

  it("reads PIGEONHOLE_TEST_CONTROL_KEY and PIGEONHOLE_TEST_CONTROL_URL", async () => {
    vi.stubEnv("PIGEONHOLE_TEST_CONTROL_KEY", "tc_env");
    vi.stubEnv("PIGEONHOLE_TEST_CONTROL_URL", "http://127.0.0.1:5555");
    const { tc, requests } = control([Response.json(clock)]);
    await tc.clock.get();
    expect(requests[0]?.url.href).toBe("http://127.0.0.1:5555/_test/clock");
    expect(requests[0]?.headers.get("authorization")).toBe("Bearer tc_env");
  });

  it("prefers the options to the environment", async () => {
    vi.stubEnv("PIGEONHOLE_TEST_CONTROL_KEY", "tc_env");
    vi.stubEnv("PIGEONHOLE_TEST_CONTROL_URL", "http://127.0.0.1:5555");
    const { tc, requests } = control([Response.json(clock)], { key: "tc_option", baseUrl: "http://127.0.0.1:4020" });
    await tc.clock.get();
    expect(requests[0]?.url.href).toBe("http://127.0.0.1:4020/_test/clock");
    expect(requests[0]?.headers.get("authorization")).toBe("Bearer tc_option");
  });

  it("refuses an empty key at construction", () => {
    expect(() => createTestControl({ key: " " })).toThrow(PigeonholeError);
  });

  it("keeps its helpers and options on a client made with withOptions, with the key changed", async () => {
    const { tc, requests } = control([Response.json(clock), Response.json(clock)], { key: "tc_first" });
    await tc.withOptions({ key: "tc_second" }).clock.get();
    await tc.withOptions({ timeout: 1_000 }).clock.get();
    expect(requests.map((request) => request.headers.get("authorization"))).toEqual([
      "Bearer tc_second",
      "Bearer tc_first",
    ]);
  });

  it("offers every operation of the spec in the result style too", async () => {
    const { tc, requests } = control([envelope(404, "not_found_error", "NOT_FOUND", "No fault flt_9.", "fault_id")]);
    const { data, error, response } = await tc.GET("/_test/faults/{fault_id}", {
      params: { path: { fault_id: "flt_9" } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error?.error.details).toEqual({ field: "fault_id", code: "NOT_FOUND" });
    expect(requests[0]?.url.pathname).toBe("/_test/faults/flt_9");
  });
});

describe("clock", () => {
  it("reads the clock with a GET and no body", async () => {
    const { tc, requests } = control([Response.json(clock)]);
    await expect(tc.clock.get()).resolves.toEqual(clock);
    expect(requests[0]).toMatchObject({ method: "GET", body: "" });
  });

  it("sets the time from a Date or a timestamp, and the frozen state alone", async () => {
    const { tc, requests } = control([Response.json(clock), Response.json(clock), Response.json(clock)]);
    await tc.clock.set({ now: new Date("2027-01-01T00:00:00Z"), frozen: true });
    await tc.clock.set({ now: "2027-02-01T00:00:00.000Z" });
    await tc.clock.set({ frozen: false });
    expect(requests.map((request) => [request.method, request.url.pathname, JSON.parse(request.body)])).toEqual([
      ["PUT", "/_test/clock", { now: "2027-01-01T00:00:00.000Z", frozen: true }],
      ["PUT", "/_test/clock", { now: "2027-02-01T00:00:00.000Z" }],
      ["PUT", "/_test/clock", { frozen: false }],
    ]);
  });

  it("advances by milliseconds or by parts added up", async () => {
    const { tc, requests } = control([Response.json(clock), Response.json(clock)]);
    await tc.clock.advance(1_500);
    await tc.clock.advance({ days: 1, hours: 2, minutes: 3, seconds: 4, ms: 5 });
    expect(requests.map((request) => [request.method, request.url.pathname, JSON.parse(request.body)])).toEqual([
      ["POST", "/_test/clock/advance", { ms: 1_500 }],
      ["POST", "/_test/clock/advance", { ms: 86_400_000 + 2 * 3_600_000 + 3 * 60_000 + 4_000 + 5 }],
    ]);
  });

  it.each([0, -1, 1.5, Number.NaN, { seconds: 0.0001 }, {}])("refuses to advance by %j without sending", async (by) => {
    const { tc, requests } = control();
    await expect(tc.clock.advance(by)).rejects.toThrow(RangeError);
    expect(requests).toHaveLength(0);
  });

  it("throws the server's refusal to go back as a BadRequestError with its code", async () => {
    const { tc } = control([
      envelope(400, "validation_error", "CLOCK_BACKWARDS", "now: the clock cannot go back.", "now"),
    ]);
    const error = await tc.clock.set({ now: "2020-01-01T00:00:00.000Z" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: "CLOCK_BACKWARDS", service: "test-control" });
  });
});

describe("faults", () => {
  it("arms a fault with the rule as the body and resolves to the fault", async () => {
    const { tc, requests } = control([Response.json(fault, { status: 201 })]);
    const rule = {
      target: "request",
      match: { method: "POST", path: "/v0/inboxes/*/messages" },
      action: { type: "respond", status: 429, headers: { "Retry-After": "2" } },
    } as const;
    await expect(tc.faults.add(rule)).resolves.toEqual(fault);
    expect(requests[0]).toMatchObject({ method: "POST", body: JSON.stringify(rule) });
    expect(requests[0]?.url.pathname).toBe("/_test/faults");
    expect(requests[0]?.headers.get("content-type")).toBe("application/json");
    // Test control takes no idempotency key: nothing on its side deduplicates.
    expect(requests[0]?.headers.has("idempotency-key")).toBe(false);
  });

  it("lists the faults as an array, reads, removes one, and clears them all", async () => {
    const { tc, requests } = control([
      Response.json({ faults: [fault] }),
      Response.json(fault),
      new Response(null, { status: 204 }),
      new Response(null, { status: 204 }),
    ]);
    await expect(tc.faults.list()).resolves.toEqual([fault]);
    await expect(tc.faults.get("flt_1")).resolves.toEqual(fault);
    await expect(tc.faults.remove("flt_1")).resolves.toBeUndefined();
    await expect(tc.faults.clear()).resolves.toBeUndefined();
    expect(requests.map((request) => `${request.method} ${request.url.pathname}`)).toEqual([
      "GET /_test/faults",
      "GET /_test/faults/flt_1",
      "DELETE /_test/faults/flt_1",
      "DELETE /_test/faults",
    ]);
  });

  it("throws NotFoundError for a fault that does not exist", async () => {
    const { tc } = control([envelope(404, "not_found_error", "NOT_FOUND", "No fault flt_9.", "fault_id")]);
    const error = await tc.faults.remove("flt_9").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).not.toBeInstanceOf(WaitTimedOutError);
    expect(error).toMatchObject({ code: "NOT_FOUND", requestId: "req_404" });
  });
});

describe("waitForMessage", () => {
  it("sends the filter as the query, one label parameter per label, and a Date since as ISO 8601", async () => {
    const { tc, requests } = control([Response.json(waited)]);
    await expect(
      tc.waitForMessage({
        inbox_id: "ada@pigeonhole.test",
        from: "no-reply@app.example.com",
        subject: "Your code",
        text: "code",
        label: ["received", "unread"],
        since: new Date("2026-11-22T09:29:00Z"),
        timeout_ms: 2_000,
      }),
    ).resolves.toEqual(waited);
    expect(requests[0]?.method).toBe("GET");
    expect(requests[0]?.url.pathname).toBe("/_test/wait/message");
    expect([...(requests[0]?.url.searchParams ?? [])]).toEqual([
      ["inbox_id", "ada@pigeonhole.test"],
      ["from", "no-reply@app.example.com"],
      ["subject", "Your code"],
      ["text", "code"],
      ["label", "received"],
      ["label", "unread"],
      ["since", "2026-11-22T09:29:00.000Z"],
      ["timeout_ms", "2000"],
    ]);
  });

  it("waits for anything with no filter", async () => {
    const { tc, requests } = control([Response.json(waited)]);
    await tc.waitForMessage();
    expect(requests[0]?.url.search).toBe("");
  });

  it("throws WaitTimedOutError on WAIT_TIMED_OUT, saying what it waited for", async () => {
    const { tc } = control([timedOut()]);
    const error = (await tc
      .waitForMessage({ subject: "Welcome", timeout_ms: 250 })
      .catch((caught: unknown) => caught)) as WaitTimedOutError;
    expect(error).toBeInstanceOf(WaitTimedOutError);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(PigeonholeError);
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ name: "WaitTimedOutError", status: 404, code: "WAIT_TIMED_OUT" });
    expect(error.body.error.type).toBe("not_found_error");
    expect(error.message).toBe(
      '404 WAIT_TIMED_OUT: Nothing matched within 250 ms. (request req_404) (waited for a message matching {"subject":"Welcome","timeout_ms":250})',
    );
  });

  it("is not retried: a retried wait would wait all over again", async () => {
    const { tc, requests } = control([503, 503, Response.json(waited)]);
    await expect(tc.waitForMessage({ timeout_ms: 100 })).rejects.toBeInstanceOf(InternalServerError);
    expect(requests).toHaveLength(1);
  });

  it("gives the connection the server's wait plus a margin before timing out", async () => {
    vi.useFakeTimers();
    const { tc, requests } = control(["hang"]);
    const waiting = tc.waitForMessage({ timeout_ms: 1_000 }).catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(5_999);
    expect(requests[0]?.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests[0]?.signal.aborted).toBe(true);
    await expect(waiting).resolves.toBeInstanceOf(APIConnectionTimeoutError);
  });

  it("waits the server's default of 10 s plus the margin when the filter sets no timeout", async () => {
    vi.useFakeTimers();
    const { tc, requests } = control(["hang"]);
    const waiting = tc.waitForMessage({ subject: "Welcome" }).catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(requests[0]?.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(waiting).resolves.toBeInstanceOf(APIConnectionTimeoutError);
  });

  it("lets a call choose its own timeout, retries and abort", async () => {
    const { tc, requests } = control([503, Response.json(waited)]);
    const controller = new AbortController();
    await expect(tc.waitForMessage({ timeout_ms: 100 }, { maxRetries: 1, signal: controller.signal })).resolves.toEqual(
      waited,
    );
    expect(requests).toHaveLength(2);
  });
});

describe("waitForWebhookDelivery", () => {
  it("sends the filter as the query and resolves to the delivery", async () => {
    const { tc, requests } = control([Response.json({ delivery })]);
    await expect(
      tc.waitForWebhookDelivery({
        webhook_id: "wh_1",
        event_type: "message.received",
        status: "succeeded",
        since: "2026-11-22T09:29:00.000Z",
      }),
    ).resolves.toEqual(delivery);
    expect(requests[0]?.url.pathname).toBe("/_test/wait/webhook-delivery");
    expect(requests[0]?.url.search).toBe(
      "?webhook_id=wh_1&event_type=message.received&status=succeeded&since=2026-11-22T09%3A29%3A00.000Z",
    );
  });

  it("throws WaitTimedOutError on WAIT_TIMED_OUT, saying what it waited for", async () => {
    const { tc } = control([timedOut()]);
    const error = await tc.waitForWebhookDelivery({ event_id: "evt_1" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WaitTimedOutError);
    expect((error as Error).message).toContain('(waited for a webhook delivery matching {"event_id":"evt_1"})');
  });
});

describe("extract", () => {
  it("URL-encodes the message id in the path and names the inbox in the query", async () => {
    const found = { links: ["https://app.example.com/verify?t=1"], codes: ["482913"] };
    const { tc, requests } = control([Response.json(found)]);
    await expect(tc.extract("ada@pigeonhole.test", "<m1@pigeonhole.test>")).resolves.toEqual(found);
    expect(requests[0]?.url.pathname).toBe("/_test/messages/%3Cm1%40pigeonhole.test%3E/extract");
    expect(requests[0]?.url.searchParams.get("inbox_id")).toBe("ada@pigeonhole.test");
  });
});

describe("reset", () => {
  it("wipes everything with no body, or one key's data with its key", async () => {
    const { tc, requests } = control([new Response(null, { status: 204 }), new Response(null, { status: 204 })]);
    await expect(tc.reset()).resolves.toBeUndefined();
    await expect(tc.reset({ api_key: "pk_one" })).resolves.toBeUndefined();
    expect(requests.map((request) => [request.method, request.url.pathname, request.body])).toEqual([
      ["POST", "/_test/reset", ""],
      ["POST", "/_test/reset", JSON.stringify({ api_key: "pk_one" })],
    ]);
  });
});

describe("errors", () => {
  it("throws AuthenticationError when the key is refused", async () => {
    const { tc } = control([
      envelope(401, "authentication_error", "INVALID_API_KEY", "Not the test-control key.", "Authorization"),
    ]);
    const error = await tc.faults.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: "INVALID_API_KEY" });
  });

  it("throws a plain APIError for a 404 without the envelope, such as a proxy's page", async () => {
    const { tc } = control([new Response("Not Found", { status: 404 })]);
    const error = await tc.clock.get().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect(error).not.toBeInstanceOf(WaitTimedOutError);
    expect(error).toMatchObject({ status: 404, code: undefined });
  });
});
