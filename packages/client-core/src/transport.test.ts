import { fakeFetch, type Step } from "@pigeonhole/fake-fetch";
import { afterEach, describe, expect, it, vi } from "vitest";
import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } from "./errors.js";
import type { GiveUpEvent, RetryEvent } from "./hooks.js";
import { createLogger, type Logger } from "./logger.js";
import { createTransport, type RequestOptions, type TransportOptions } from "./transport.js";

const URL_BASE = "https://api.pigeonhole.test/v0";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The scripted fetch of every client test, recording each attempt. */
const scriptedFetch = (...steps: Step[]) => fakeFetch(steps);

/** A 503 without a hint how long to wait, so the backoff applies. */
const unavailable = () => new Response("status 503", { status: 503 });

/** A sleep that only records the delays, so retries are instant. */
function recordingSleep() {
  const delays: number[] = [];
  const sleep = async (ms: number) => {
    delays.push(ms);
  };
  return { sleep, delays };
}

/** A fetch step that never answers, only rejecting (as fetch does) when its attempt signal aborts. */
const hang = "hang";

function setup(steps: Step[], options: Omit<TransportOptions, "fetch" | "sleep"> = {}) {
  const server = scriptedFetch(...steps);
  const { sleep, delays } = recordingSleep();
  const transport = createTransport({ ...options, fetch: server.fetch, sleep });
  return { transport, delays, requests: server.requests };
}

/** Per-call options ride on the Request, as openapi-fetch puts them there. */
const withOptions = (request: Request, options: RequestOptions) => Object.assign(request, options);

const get = (path = "/inboxes", init?: RequestInit) => new Request(`${URL_BASE}${path}`, init);
const post = (body: unknown, init: RequestInit = {}) =>
  new Request(`${URL_BASE}/inboxes/a/messages`, {
    method: "POST",
    body: JSON.stringify(body),
    ...init,
    headers: { "content-type": "application/json", ...(init.headers as Record<string, string> | undefined) },
  });

const refused = () =>
  new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("which responses are retried", () => {
  it.each([408, 409, 429, 500, 502, 503, 504])("retries %i", async (status) => {
    const { transport, requests } = setup([status]);
    const response = await transport(get());
    expect(response.status).toBe(200);
    expect(requests).toHaveLength(2);
  });

  it.each([200, 201, 204, 400, 401, 403, 404, 413, 422])("returns %i without retrying", async (status) => {
    const { transport, requests } = setup([new Response(null, { status })]);
    const response = await transport(get());
    expect(response.status).toBe(status);
    expect(requests).toHaveLength(1);
  });

  it("honours x-should-retry: false on a 503", async () => {
    const { transport, requests } = setup([
      new Response(null, { status: 503, headers: { "x-should-retry": "false" } }),
    ]);
    expect((await transport(get())).status).toBe(503);
    expect(requests).toHaveLength(1);
  });

  it("honours x-should-retry: true on a 400", async () => {
    const { transport, requests } = setup([new Response(null, { status: 400, headers: { "x-should-retry": "true" } })]);
    expect((await transport(get())).status).toBe(200);
    expect(requests).toHaveLength(2);
  });

  it("returns the readable body of the final response", async () => {
    const { transport } = setup([503, Response.json({ inbox_id: "a" })]);
    await expect((await transport(get())).json()).resolves.toEqual({ inbox_id: "a" });
  });

  it("cancels the body of a response it retries", async () => {
    const { transport, requests } = setup([unavailable()]);
    await transport(get());
    expect(requests[0]?.response?.bodyUsed).toBe(true);
    expect(requests[1]?.response?.bodyUsed).toBe(false);
  });
});

describe("attempt counts", () => {
  it("makes 3 attempts by default and returns the last response", async () => {
    const { transport, requests, delays } = setup([503, 503, 503, 503]);
    const response = await transport(get());
    expect(response.status).toBe(503);
    expect(requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it("makes 1 attempt with maxRetries 0", async () => {
    const { transport, requests, delays } = setup([503], { maxRetries: 0 });
    expect((await transport(get())).status).toBe(503);
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it("takes a per-call maxRetries", async () => {
    const { transport, requests } = setup([503, 503, 503, 503, 503], { maxRetries: 0 });
    const response = await transport(withOptions(get(), { maxRetries: 4 }));
    expect(response.status).toBe(503);
    expect(requests).toHaveLength(5);
  });

  it("takes a per-call maxRetries of 0", async () => {
    const { transport, requests } = setup([503]);
    await transport(withOptions(get(), { maxRetries: 0 }));
    expect(requests).toHaveLength(1);
  });

  it("rejects an invalid per-call maxRetries before sending", async () => {
    const { transport, requests } = setup([]);
    await expect(transport(withOptions(get(), { maxRetries: -1 }))).rejects.toThrow(
      "maxRetries must be a non-negative integer, got -1",
    );
    expect(requests).toEqual([]);
  });
});

describe("delays between attempts", () => {
  it("backs off exponentially without a server hint", async () => {
    const { transport, delays } = setup([unavailable(), unavailable()]);
    await transport(get());
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeGreaterThan(375);
    expect(delays[0]).toBeLessThanOrEqual(500);
    expect(delays[1]).toBeGreaterThan(750);
    expect(delays[1]).toBeLessThanOrEqual(1000);
  });

  it("waits as long as Retry-After and retry-after-ms say", async () => {
    const { transport, delays } = setup([
      new Response(null, { status: 429, headers: { "retry-after": "0.1" } }),
      new Response(null, { status: 429, headers: { "retry-after-ms": "30" } }),
    ]);
    await transport(get());
    expect(delays).toEqual([100, 30]);
  });

  it("answers at once, without retrying, when Retry-After is over 60 s", async () => {
    const { transport, delays, requests } = setup([
      new Response(null, { status: 429, headers: { "retry-after": "3600" } }),
    ]);
    const response = await transport(get());
    expect(response.status).toBe(429);
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });
});

describe("idempotency keys", () => {
  const options = { idempotencyHeader: "Idempotency-Key" };

  it("sends the same key on every attempt of a POST", async () => {
    const { transport, requests } = setup([429, 503], options);
    await transport(post({ to: "b@pigeonhole.dev" }));
    const keys = requests.map((r) => r.headers.get("idempotency-key"));
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys).size).toBe(1);
  });

  it("uses a different key for each logical POST", async () => {
    const { transport, requests } = setup([], options);
    await transport(post({ n: 1 }));
    await transport(post({ n: 1 }));
    const [first, second] = requests.map((r) => r.headers.get("idempotency-key"));
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(first).not.toBe(second);
  });

  it("adds no key to GET or HEAD", async () => {
    const { transport, requests } = setup([503], options);
    await transport(get());
    await transport(get("/inboxes", { method: "HEAD" }));
    expect(requests.map((r) => r.headers.has("idempotency-key"))).toEqual([false, false, false]);
  });

  it("adds a key to DELETE and PATCH", async () => {
    const { transport, requests } = setup([], options);
    await transport(get("/inboxes/a", { method: "DELETE" }));
    await transport(get("/inboxes/a", { method: "PATCH", body: "{}" }));
    expect(requests.map((r) => r.headers.get("idempotency-key"))).toEqual([
      expect.stringMatching(UUID),
      expect.stringMatching(UUID),
    ]);
  });

  it("keeps a key the caller provided", async () => {
    const { transport, requests } = setup([503], options);
    await transport(post({ n: 1 }, { headers: { "Idempotency-Key": "send-42" } }));
    expect(requests.map((r) => r.headers.get("idempotency-key"))).toEqual(["send-42", "send-42"]);
  });

  it("sends a per-call idempotencyKey on every attempt", async () => {
    const { transport, requests } = setup([503], options);
    await transport(withOptions(post({ n: 1 }), { idempotencyKey: "order-7" }));
    expect(requests.map((r) => r.headers.get("idempotency-key"))).toEqual(["order-7", "order-7"]);
  });

  it("mints random hex keys where crypto.randomUUID is missing, as on plain-http pages", async () => {
    vi.stubGlobal("crypto", { getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) });
    const { transport, requests } = setup([], options);
    for (let i = 0; i < 50; i++) {
      await transport(post({ n: i }));
    }
    const keys = requests.map((r) => r.headers.get("idempotency-key"));
    expect(keys.every((key) => /^[0-9a-f]{32}$/.test(key ?? ""))).toBe(true);
    expect(new Set(keys).size).toBe(50);
  });

  it("adds no key unless idempotencyHeader is set", async () => {
    const { transport, requests } = setup([]);
    await transport(post({ n: 1 }));
    expect(requests[0]?.headers.has("idempotency-key")).toBe(false);
  });
});

describe("request bodies", () => {
  it("re-sends the JSON body and headers identically on each attempt", async () => {
    const body = { to: ["b@pigeonhole.dev"], subject: "Hi", text: "ünïcödé" };
    const { transport, requests } = setup([503, 502], { idempotencyHeader: "Idempotency-Key" });
    await transport(post(body, { headers: { authorization: "Bearer k" } }));
    expect(requests.map((r) => r.body)).toEqual([JSON.stringify(body), JSON.stringify(body), JSON.stringify(body)]);
    for (const request of requests) {
      expect(request.method).toBe("POST");
      expect(request.url.href).toBe(`${URL_BASE}/inboxes/a/messages`);
      expect(request.headers.get("content-type")).toBe("application/json");
      expect(request.headers.get("authorization")).toBe("Bearer k");
    }
  });
});

describe("timeouts", () => {
  it("throws APIConnectionTimeoutError after retrying every timed-out attempt", async () => {
    const { transport, requests, delays } = setup([hang, hang, hang], { timeout: 20 });
    const started = Date.now();
    const error = await transport(get()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as APIConnectionTimeoutError).message).toBe("Request timed out after 20 ms.");
    expect(((error as APIConnectionTimeoutError).cause as DOMException).name).toBe("TimeoutError");
    expect(requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("retries a timeout and returns the later response", async () => {
    const { transport, requests } = setup([hang], { timeout: 20 });
    expect((await transport(get())).status).toBe(200);
    expect(requests).toHaveLength(2);
  });

  it("takes a per-call timeout", async () => {
    const { transport, requests } = setup([hang], { timeout: 60_000 });
    const started = Date.now();
    const error = await transport(withOptions(get(), { timeout: 10, maxRetries: 0 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toBe("Request timed out after 10 ms.");
    expect(requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("rejects an invalid per-call timeout before sending", async () => {
    const { transport, requests } = setup([]);
    await expect(transport(withOptions(get(), { timeout: 0 }))).rejects.toBeInstanceOf(RangeError);
    expect(requests).toEqual([]);
  });

  it("clears the timer of an answered attempt", async () => {
    const { transport, requests } = setup([Response.json({ ok: 1 })], { timeout: 20 });
    await transport(get());
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(requests[0]?.signal.aborted).toBe(false);
  });

  it("does not time out a response whose headers arrived in time", async () => {
    const { transport } = setup([Response.json({ ok: 1 })], { timeout: 20 });
    const response = await transport(get());
    await new Promise((resolve) => setTimeout(resolve, 30));
    await expect(response.json()).resolves.toEqual({ ok: 1 });
  });
});

describe("caller aborts", () => {
  it("throws APIUserAbortError at once when aborted during a request", async () => {
    const controller = new AbortController();
    const { transport, requests, delays } = setup([
      (_request, { signal }) => {
        setTimeout(() => controller.abort("user cancelled"), 5);
        return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
      },
    ]);
    const error = await transport(get("/inboxes", { signal: controller.signal })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toBe("user cancelled");
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it("throws APIUserAbortError when aborted during the backoff sleep", async () => {
    const controller = new AbortController();
    const server = scriptedFetch(503, 503);
    const transport = createTransport({
      fetch: server.fetch,
      // A sleep that only ends when its signal aborts, which the caller does as soon as the wait starts.
      sleep: (_ms, signal) =>
        new Promise((_, reject) => {
          signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
          controller.abort();
        }),
    });
    await expect(transport(get("/inboxes", { signal: controller.signal }))).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.requests).toHaveLength(1);
  });

  it("interrupts the default sleep", async () => {
    const controller = new AbortController();
    const server = scriptedFetch(new Response(null, { status: 429, headers: { "retry-after": "30" } }));
    const transport = createTransport({ fetch: server.fetch });
    setTimeout(() => controller.abort(), 10);
    const started = Date.now();
    await expect(transport(get("/inboxes", { signal: controller.signal }))).rejects.toBeInstanceOf(APIUserAbortError);
    expect(Date.now() - started).toBeLessThan(500);
    expect(server.requests).toHaveLength(1);
  });

  it("sends nothing when already aborted", async () => {
    const { transport, requests } = setup([]);
    await expect(transport(get("/inboxes", { signal: AbortSignal.abort() }))).rejects.toBeInstanceOf(APIUserAbortError);
    expect(requests).toEqual([]);
  });

  it("aborts the body of a response when the caller aborts after the headers arrived", async () => {
    const controller = new AbortController();
    const { transport, requests } = setup([]);
    await transport(get("/inboxes", { signal: controller.signal }));
    controller.abort();
    expect(requests[0]?.signal.aborted).toBe(true);
  });
});

describe("network errors", () => {
  it("throws APIConnectionError with the cause after retrying", async () => {
    const cause = new TypeError("fetch failed");
    const { transport, requests, delays } = setup([cause, cause, cause]);
    const error = await transport(get()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as APIConnectionError).cause).toBe(cause);
    expect(requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it("treats a fetch that throws synchronously like one that rejects", async () => {
    let calls = 0;
    const transport = createTransport({
      sleep: async () => {},
      fetch: (() => {
        calls++;
        if (calls === 1) {
          throw new TypeError("synchronous failure");
        }
        return Promise.resolve(Response.json({ ok: true }));
      }) as unknown as TransportOptions["fetch"],
    });
    expect((await transport(get())).status).toBe(200);
    expect(calls).toBe(2);
  });

  it("recovers when a retry succeeds", async () => {
    const { transport, requests } = setup([new TypeError("ECONNRESET")]);
    expect((await transport(get())).status).toBe(200);
    expect(requests).toHaveLength(2);
  });
});

describe("fetch option", () => {
  it("looks up globalThis.fetch at call time", async () => {
    const transport = createTransport({ sleep: async () => {} });
    const server = scriptedFetch(Response.json({ stubbed: true }));
    vi.stubGlobal("fetch", server.fetch);
    await expect((await transport(get())).json()).resolves.toEqual({ stubbed: true });
    expect(server.requests).toHaveLength(1);
  });
});

describe("options validation", () => {
  it("rejects bad transport options", () => {
    expect(() => createTransport({ timeout: 0 })).toThrow(RangeError);
    expect(() => createTransport({ maxRetries: -1 })).toThrow(RangeError);
    expect(() => createTransport({ maxRetries: 1.5 })).toThrow(RangeError);
  });
});

describe("writes that are not safe to repeat", () => {
  // Without an idempotency header (as in a service that does not deduplicate), a POST could be applied twice.
  it.each([500, 503, 409])("does not retry a POST answered %i", async (status) => {
    const { transport, requests } = setup([status]);
    expect((await transport(post({ n: 1 }))).status).toBe(status);
    expect(requests).toHaveLength(1);
  });

  it.each([408, 429])("retries a POST answered %i, which the server did not act on", async (status) => {
    const { transport, requests } = setup([status]);
    expect((await transport(post({ n: 1 }))).status).toBe(200);
    expect(requests).toHaveLength(2);
    expect(requests.map((r) => r.body)).toEqual(['{"n":1}', '{"n":1}']);
  });

  it("does not retry a POST that timed out or lost its connection", async () => {
    const timedOut = setup([hang], { timeout: 10 });
    await expect(timedOut.transport(post({ n: 1 }))).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    expect(timedOut.requests).toHaveLength(1);
    const reset = setup([new TypeError("fetch failed", { cause: { code: "ECONNRESET" } })]);
    await expect(reset.transport(post({ n: 1 }))).rejects.toBeInstanceOf(APIConnectionError);
    expect(reset.requests).toHaveLength(1);
  });

  it("retries a POST whose connection was refused", async () => {
    const { transport, requests } = setup([refused()]);
    expect((await transport(post({ n: 1 }))).status).toBe(200);
    expect(requests).toHaveLength(2);
  });

  it("retries a POST when the server says x-should-retry: true", async () => {
    const { transport, requests } = setup([new Response(null, { status: 503, headers: { "x-should-retry": "true" } })]);
    expect((await transport(post({ n: 1 }))).status).toBe(200);
    expect(requests).toHaveLength(2);
  });

  it.each(["PUT", "DELETE"])("retries a %s, which HTTP defines as idempotent", async (method) => {
    const { transport, requests } = setup([503, hang], { timeout: 10 });
    expect((await transport(get("/webhooks/wh_1", { method }))).status).toBe(200);
    expect(requests).toHaveLength(3);
  });

  it("retries every write once an idempotency header is configured", async () => {
    const { transport, requests } = setup([503, hang, 500], {
      idempotencyHeader: "Idempotency-Key",
      maxRetries: 3,
      timeout: 10,
    });
    expect((await transport(post({ n: 1 }))).status).toBe(200);
    expect(requests).toHaveLength(4);
  });
});

describe("logging", () => {
  const SECRET = "sk_live_do_not_log_me";

  function recordingLogger() {
    const lines: { level: string; message: string; data?: Record<string, unknown> }[] = [];
    const at =
      (level: string) =>
      (message: string, data?: Record<string, unknown>): void => {
        lines.push({ level, message, ...(data ? { data } : {}) });
      };
    const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
    return { lines, logger };
  }

  it("logs each attempt at debug and each retry at info", async () => {
    const { lines, logger } = recordingLogger();
    const { transport } = setup([new Response(null, { status: 503, headers: { "x-request-id": "req_1" } })], {
      logger: createLogger("debug", logger),
    });
    await transport(get());
    expect(lines.map((l) => `${l.level} ${l.message}`)).toEqual([
      "debug request",
      "debug response",
      "info retrying request",
      "debug request",
      "debug response",
    ]);
    expect(lines[2]?.data).toMatchObject({ method: "GET", attempt: 1, reason: 503, requestId: "req_1" });
  });

  it("logs retries at info, and to the console with a prefix when no sink is given", async () => {
    const info = vi.spyOn(globalThis.console, "info").mockImplementation(() => undefined);
    const debug = vi.spyOn(globalThis.console, "debug").mockImplementation(() => undefined);
    try {
      const { transport } = setup([503], { logger: createLogger("info") });
      await transport(get());
      expect(info).toHaveBeenCalledTimes(1);
      expect(info.mock.calls[0]?.[0]).toBe("[pigeonhole] retrying request");
      expect(debug).not.toHaveBeenCalled();
    } finally {
      info.mockRestore();
      debug.mockRestore();
    }
  });

  it("logs nothing without a logger, even when a call fails for good", async () => {
    const spies = (["debug", "info", "warn", "error"] as const).map((level) =>
      vi.spyOn(globalThis.console, level).mockImplementation(() => undefined),
    );
    try {
      const { transport } = setup([503, 503, 503, new TypeError("fetch failed")]);
      expect((await transport(get())).status).toBe(503);
      await expect(transport(post({ n: 1 }))).rejects.toBeInstanceOf(APIConnectionError);
      for (const spy of spies) {
        expect(spy).not.toHaveBeenCalled();
      }
    } finally {
      for (const spy of spies) {
        spy.mockRestore();
      }
    }
  });

  it("logs nothing at the default level when a retry succeeds", async () => {
    const { lines, logger } = recordingLogger();
    const { transport } = setup([503], { logger: createLogger(undefined, logger) });
    await transport(get());
    expect(lines).toEqual([]);
  });

  it("warns at the default level when the retries are spent, or a call gets no answer", async () => {
    const { lines, logger } = recordingLogger();
    const exhausted = setup([503, 503, new Response(null, { status: 503, headers: { "x-request-id": "req_3" } })], {
      logger: createLogger(undefined, logger),
    });
    expect((await exhausted.transport(get())).status).toBe(503);
    const dropped = setup([new TypeError("fetch failed", { cause: { code: "ECONNRESET" } })], {
      logger: createLogger(undefined, logger),
    });
    await expect(dropped.transport(post({ n: 1 }))).rejects.toBeInstanceOf(APIConnectionError);
    const timedOut = setup([hang, hang], { logger: createLogger("warn", logger), timeout: 10, maxRetries: 1 });
    await expect(timedOut.transport(get())).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    expect(lines).toEqual([
      {
        level: "warn",
        message: "gave up retrying",
        data: { method: "GET", url: `${URL_BASE}/inboxes`, attempt: 3, status: 503, requestId: "req_3" },
      },
      {
        level: "warn",
        message: "no response",
        data: {
          method: "POST",
          url: `${URL_BASE}/inboxes/a/messages`,
          attempt: 1,
          reason: "APIConnectionError",
          error: `Connection error: ECONNRESET (POST ${URL_BASE}/inboxes/a/messages)`,
        },
      },
      {
        level: "warn",
        message: "no response",
        data: {
          method: "GET",
          url: `${URL_BASE}/inboxes`,
          attempt: 2,
          reason: "APIConnectionTimeoutError",
          error: "Request timed out after 10 ms.",
        },
      },
    ]);
  });

  it("does not warn about an error answer that is not retried", async () => {
    const { lines, logger } = recordingLogger();
    const { transport } = setup([404, 503], { logger: createLogger("warn", logger), maxRetries: 0 });
    await transport(get());
    await transport(get());
    expect(lines).toEqual([]);
  });

  it("redacts credentials in the logged URL", async () => {
    const { lines, logger } = recordingLogger();
    const { transport } = setup([hang], { logger: createLogger("warn", logger), timeout: 5, maxRetries: 0 });
    await transport(get(`/inboxes?api_key=${SECRET}&limit=2`)).catch(() => undefined);
    expect(lines[0]?.data?.url).toBe(`${URL_BASE}/inboxes?api_key=***&limit=2`);
  });

  it("never logs the API key", async () => {
    const { lines, logger } = recordingLogger();
    const { transport } = setup([503, new TypeError("fetch failed")], { logger: createLogger("debug", logger) });
    await transport(
      post(
        { text: "hello" },
        { headers: { authorization: `Bearer ${SECRET}`, "x-api-key": SECRET, cookie: `session=${SECRET}` } },
      ),
    );
    await transport(get("/inboxes", { headers: { authorization: `Bearer ${SECRET}` } }));
    const logged = JSON.stringify(lines);
    expect(lines.length).toBeGreaterThan(5);
    expect(logged).toContain("***");
    expect(logged).not.toContain(SECRET);
  });
});

describe("hooks", () => {
  it("reports each attempt, answer and retry with its delay, reason and request id", async () => {
    const events: string[] = [];
    const retries: RetryEvent[] = [];
    const { transport } = setup(
      [
        new Response(null, { status: 429, headers: { "retry-after-ms": "25", "x-request-id": "req_1" } }),
        new TypeError("fetch failed"),
      ],
      {
        onRequest: ({ request, attempt }) => events.push(`request ${attempt} ${request.method}`),
        onResponse: ({ response, attempt, requestId }) =>
          events.push(`response ${attempt} ${response.status} ${requestId}`),
        onRetry: (retry) => {
          retries.push(retry);
          events.push(`retry ${retry.attempt}`);
        },
      },
    );
    expect((await transport(get())).status).toBe(200);
    expect(events).toEqual([
      "request 1 GET",
      "response 1 429 req_1",
      "retry 1",
      "request 2 GET",
      "retry 2",
      "request 3 GET",
      "response 3 200 null",
    ]);
    expect(retries[0]).toMatchObject({ attempt: 1, delay: 25, reason: 429, requestId: "req_1" });
    expect(retries[1]).toMatchObject({ attempt: 2, requestId: null });
    expect(retries[1]?.reason).toBeInstanceOf(APIConnectionError);
    expect(retries[1]?.delay).toBeGreaterThan(750);
    expect(retries[1]?.request.url).toBe(`${URL_BASE}/inboxes`);
  });

  it("reports the failure a call gives up on: spent retries, a write it cannot repeat, or no answer", async () => {
    const given: string[] = [];
    const onGiveUp = ({ attempt, reason, requestId }: GiveUpEvent) =>
      given.push(`${attempt} ${typeof reason === "number" ? reason : reason.name} ${requestId}`);
    const spent = setup([503, 503, new Response(null, { status: 503, headers: { "x-request-id": "req_9" } })], {
      onGiveUp,
    });
    expect((await spent.transport(get())).status).toBe(503);
    const write = setup([503], { onGiveUp });
    expect((await write.transport(post({ n: 1 }))).status).toBe(503);
    const dropped = setup([hang], { onGiveUp, timeout: 5, maxRetries: 0 });
    await expect(dropped.transport(get())).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    const fine = setup([404], { onGiveUp });
    expect((await fine.transport(get())).status).toBe(404);
    expect(given).toEqual(["3 503 req_9", "1 503 null", "1 APIConnectionTimeoutError null"]);
  });

  it("reports no retry for a call that needs none", async () => {
    const onRetry = vi.fn();
    const { transport } = setup([404], { onRetry });
    await transport(get());
    expect(onRetry).not.toHaveBeenCalled();
  });
});
