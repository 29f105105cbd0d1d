import { fakeFetch } from "@pigeonhole/fake-fetch";
import { afterEach, describe, expect, it, vi } from "vitest";
import { inboxError } from "../test/error-response.js";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createInboxClient,
  type Inbox,
  type InboxClientOptions,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PigeonholeError,
  RateLimitError,
  type RetryEvent,
} from "./index.js";

const inbox_id = "support@pigeonhole.test";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const sent = { message_id: "<m1@pigeonhole.test>", thread_id: "thd_1" };

const client = (fetch: InboxClientOptions["fetch"], options: InboxClientOptions = {}) =>
  createInboxClient({ apiKey: "pk_test", fetch, ...options });

const inboxRecord = (n: number): Inbox => ({
  pod_id: "3f0c2a8e-6b1d-4f5a-9c2e-7d4b8a1e5f60",
  inbox_id: `agent-${n}@pigeonhole.test`,
  email: `agent-${n}@pigeonhole.test`,
  display_name: null,
  client_id: null,
  created_at: "2026-11-22T09:30:00.000Z",
  updated_at: "2026-11-22T09:30:00.000Z",
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.useRealTimers();
});

describe("createInboxClient", () => {
  it("reads PIGEONHOLE_INBOX_API_KEY and PIGEONHOLE_INBOX_BASE_URL", async () => {
    vi.stubEnv("PIGEONHOLE_INBOX_API_KEY", "pk_env");
    vi.stubEnv("PIGEONHOLE_INBOX_BASE_URL", "http://127.0.0.1:5555");
    const { fetch, requests } = fakeFetch();
    await createInboxClient({ fetch }).get("/v0/inboxes");
    expect(requests[0]?.url.href).toBe("http://127.0.0.1:5555/v0/inboxes");
    expect(requests[0]?.headers.get("authorization")).toBe("Bearer pk_env");
  });

  it("talks to the server running locally by default", async () => {
    vi.stubEnv("PIGEONHOLE_INBOX_BASE_URL", "");
    const { fetch, requests } = fakeFetch();
    await client(fetch).get("/v0/inboxes");
    expect(requests[0]?.url.origin).toBe("http://127.0.0.1:4010");
  });

  it("fails at construction without a key, naming the variable", () => {
    vi.stubEnv("PIGEONHOLE_INBOX_API_KEY", "");
    expect(() => createInboxClient()).toThrow(
      "Missing API key: pass { apiKey } to createInboxClient() or set the PIGEONHOLE_INBOX_API_KEY environment variable.",
    );
  });
});

describe("paths and bodies", () => {
  it("URL-encodes addresses and message ids in the path", async () => {
    const { fetch, requests } = fakeFetch();
    await client(fetch).get("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: { inbox_id, message_id: "<0b5c8e2f@pigeonhole.test>" } },
    });
    expect(requests[0]?.url.pathname).toBe(
      "/v0/inboxes/support%40pigeonhole.test/messages/%3C0b5c8e2f%40pigeonhole.test%3E",
    );
  });

  it("sends the JSON body and query of the spec", async () => {
    const { fetch, requests } = fakeFetch([Response.json(sent)]);
    const inbox = client(fetch);
    const body = { to: ["ada@pigeonhole.test"], subject: "Hi", text: "Hello", labels: ["outreach"] };
    await expect(
      inbox.post("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id } }, body }),
    ).resolves.toEqual(sent);
    await inbox.get("/v0/inboxes", { params: { query: { limit: 5 } } });
    expect(requests[0]).toMatchObject({ method: "POST", body: JSON.stringify(body) });
    expect(requests[0]?.headers.get("content-type")).toBe("application/json");
    expect(requests[1]?.url.search).toBe("?limit=5");
  });

  it("resolves a 204 delete to undefined", async () => {
    const { fetch, requests } = fakeFetch([new Response(null, { status: 204 })]);
    await expect(
      client(fetch).delete("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: "wh_1" } } }),
    ).resolves.toBeUndefined();
    expect(requests[0]?.method).toBe("DELETE");
  });
});

describe("idempotent sends", () => {
  const send = (inbox: ReturnType<typeof client>, extra: object = {}) =>
    inbox.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id } },
      body: { to: "ada@pigeonhole.test", text: "once" },
      ...extra,
    });

  it("reuses one Idempotency-Key on every attempt of a send", async () => {
    const { fetch, requests } = fakeFetch([503, "hang", inboxError(500, "INTERNAL", "boom"), Response.json(sent)]);
    await expect(send(client(fetch, { timeout: 20, maxRetries: 3 }))).resolves.toEqual(sent);
    const keys = requests.map((r) => r.headers.get("idempotency-key"));
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys).size).toBe(1);
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
  });

  it("mints a new key for each logical send", async () => {
    const { fetch, requests } = fakeFetch([], () => Response.json(sent));
    const inbox = client(fetch);
    await send(inbox);
    await send(inbox);
    const [first, second] = requests.map((r) => r.headers.get("idempotency-key"));
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(first).not.toBe(second);
  });

  it("uses the caller's key, given as an option or as the spec's header parameter", async () => {
    const { fetch, requests } = fakeFetch([503, Response.json(sent), 503, Response.json(sent)]);
    const inbox = client(fetch);
    await send(inbox, { idempotencyKey: "order-1001" });
    await send(inbox, { params: { path: { inbox_id }, header: { "Idempotency-Key": "order-1002" } } });
    expect(requests.map((r) => r.headers.get("idempotency-key"))).toEqual([
      "order-1001",
      "order-1001",
      "order-1002",
      "order-1002",
    ]);
  });

  it("sends no key on reads", async () => {
    const { fetch, requests } = fakeFetch([503]);
    await client(fetch).get("/v0/inboxes");
    expect(requests.map((r) => r.headers.has("idempotency-key"))).toEqual([false, false]);
  });

  it("keeps the key in the result style too", async () => {
    const { fetch, requests } = fakeFetch([429, Response.json(sent)]);
    const { data } = await client(fetch).POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id } },
      body: { to: "ada@pigeonhole.test" },
    });
    expect(data).toEqual(sent);
    expect(requests[0]?.headers.get("idempotency-key")).toBe(requests[1]?.headers.get("idempotency-key"));
  });
});

describe("a fetch given to one call", () => {
  it("gets the client's retries and one idempotency key: 503, 503, then the answer", async () => {
    const unused = fakeFetch();
    const own = fakeFetch([503, 503, Response.json(sent)]);
    const answer = await client(unused.fetch).post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id } },
      body: { to: "ada@pigeonhole.test" },
      fetch: own.fetch,
    });
    expect(answer).toEqual(sent);
    expect(own.requests).toHaveLength(3);
    expect(new Set(own.requests.map((r) => r.headers.get("idempotency-key"))).size).toBe(1);
    expect(unused.requests).toEqual([]);
  });
});

describe("hooks", () => {
  it("tell onRetry what was retried, why, and after how long", async () => {
    const { fetch } = fakeFetch([
      new Response(null, { status: 429, headers: { "retry-after-ms": "0", "x-request-id": "req_9" } }),
    ]);
    const retries: RetryEvent[] = [];
    await client(fetch, { onRetry: (retry) => retries.push(retry) }).get("/v0/inboxes");
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 1, delay: 0, reason: 429, requestId: "req_9" });
  });
});

describe("retry schedule", () => {
  it("waits as long as Retry-After says, in seconds or as an HTTP-date", async () => {
    vi.useFakeTimers({ now: new Date("2026-11-22T09:30:00.000Z"), toFake: ["setTimeout", "clearTimeout", "Date"] });
    const { fetch, requests } = fakeFetch([
      inboxError(429, "RATE_LIMITED", "slow down", { "retry-after": "2", "retry-after-ms": "" }),
      inboxError(503, "UNAVAILABLE", "busy", { "retry-after": "Sun, 22 Nov 2026 09:30:05 GMT", "retry-after-ms": "" }),
    ]);
    const done = client(fetch).get("/v0/inboxes");
    await vi.advanceTimersByTimeAsync(1_999);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toHaveLength(2);
    // The date is 5 s after the start, so 3 s after the second attempt.
    await vi.advanceTimersByTimeAsync(2_999);
    expect(requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toHaveLength(3);
    await expect(done).resolves.toEqual({});
  });

  it("backs off exponentially without a hint, then gives up after maxRetries", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const unavailable = () => new Response(null, { status: 503 });
    const { fetch, requests } = fakeFetch([], unavailable);
    const done = client(fetch)
      .get("/v0/inboxes")
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(374);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(126); // first retry within 375-500 ms
    expect(requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_000); // second within 750-1000 ms
    expect(requests).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(requests).toHaveLength(3);
    expect(await done).toBeInstanceOf(InternalServerError);
  });
});

describe("errors", () => {
  const cases = [
    [400, "INVALID_EMAIL", BadRequestError],
    [401, "INVALID_API_KEY", AuthenticationError],
    [404, "NOT_FOUND", NotFoundError],
    [409, "ADDRESS_TAKEN", ConflictError],
    [413, "PAYLOAD_TOO_LARGE", PayloadTooLargeError],
    [429, "RATE_LIMITED", RateLimitError],
    [500, "INTERNAL", InternalServerError],
  ] as const;

  it.each(cases)("throws the class of a %i with the inbox envelope", async (status, code, ErrorClass) => {
    const { fetch } = fakeFetch([], () => inboxError(status, code, "It went wrong"));
    const error = await client(fetch, { maxRetries: 0 })
      .post("/v0/inboxes", { body: { username: "support" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(PigeonholeError);
    if (!(error instanceof APIError)) {
      throw new Error("expected an APIError");
    }
    expect(error.status).toBe(status);
    expect(error.body?.error.details.code).toBe(code);
    expect(error.code).toBe(code);
    expect(error.requestId).toBe(`req_${status}`);
    expect(error.message).toBe(`${status} ${code}: It went wrong (request req_${status})`);
  });

  it("returns the typed envelope as `error` in the result style", async () => {
    const { fetch } = fakeFetch([inboxError(404, "NOT_FOUND", "No such inbox")]);
    const { data, error, response } = await client(fetch).GET("/v0/inboxes/{inbox_id}", {
      params: { path: { inbox_id } },
    });
    expect(data).toBeUndefined();
    expect(error?.error).toEqual({
      type: "not_found_error",
      message: "No such inbox",
      details: { field: null, code: "NOT_FOUND" },
    });
    expect(response.status).toBe(404);
  });

  it("reports how long a rate limit asks to wait", async () => {
    const { fetch } = fakeFetch([], () =>
      inboxError(429, "SEND_LIMIT_EXCEEDED", "Daily limit", { "retry-after": "30", "retry-after-ms": "" }),
    );
    const error = await client(fetch, { maxRetries: 0 })
      .get("/v0/inboxes")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(30);
  });

  it("throws APIConnectionError when the network fails on every attempt", async () => {
    const { fetch, requests } = fakeFetch([], new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }));
    const error = await client(fetch, { maxRetries: 1 })
      .get("/v0/inboxes")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(requests).toHaveLength(2);
  });
});

describe("timeouts and aborts", () => {
  it("times out each attempt and throws APIConnectionTimeoutError", async () => {
    const { fetch, requests } = fakeFetch([], "hang");
    const started = Date.now();
    const error = await client(fetch, { timeout: 15, maxRetries: 1 })
      .get("/v0/inboxes")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("takes a per-call timeout over the client's", async () => {
    const { fetch, requests } = fakeFetch([], "hang");
    const error = await client(fetch, { timeout: 60_000 })
      .get("/v0/inboxes", { timeout: 10, maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(requests).toHaveLength(1);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const { fetch, requests } = fakeFetch();
    await expect(client(fetch).get("/v0/inboxes", { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    expect(requests).toHaveLength(0);
  });

  it("stops a request in flight when the signal aborts", async () => {
    const controller = new AbortController();
    const { fetch, requests } = fakeFetch([], "hang");
    const done = client(fetch).get("/v0/inboxes", { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(done).rejects.toBeInstanceOf(APIUserAbortError);
    expect(requests).toHaveLength(1);
  });

  it("stops waiting between attempts when the signal aborts", async () => {
    const controller = new AbortController();
    const { fetch, requests } = fakeFetch([], () =>
      inboxError(429, "RATE_LIMITED", "wait", { "retry-after": "30", "retry-after-ms": "" }),
    );
    const done = client(fetch).get("/v0/inboxes", { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    await expect(done).rejects.toBeInstanceOf(APIUserAbortError);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(requests).toHaveLength(1);
  });
});

describe("pagination", () => {
  /** 7 inboxes served 3 per page with opaque tokens, as the service pages them. */
  function pagedInboxes() {
    const all = Array.from({ length: 7 }, (_, i) => inboxRecord(i + 1));
    return fakeFetch([], (request) => {
      const url = new URL(request.url);
      const start = Number(url.searchParams.get("page_token")?.replace("tok_", "") ?? 0);
      const limit = Number(url.searchParams.get("limit") ?? 20);
      const inboxes = all.slice(start, start + limit);
      const next = start + limit < all.length ? `tok_${start + limit}` : null;
      return Response.json({ count: inboxes.length, limit, next_page_token: next, inboxes });
    });
  }

  it("iterates every item across pages with paginate", async () => {
    const { fetch, requests } = pagedInboxes();
    const ids: string[] = [];
    for await (const inbox of client(fetch).paginate("/v0/inboxes", { params: { query: { limit: 3 } } })) {
      ids.push(inbox.inbox_id);
    }
    expect(ids).toEqual(Array.from({ length: 7 }, (_, i) => `agent-${i + 1}@pigeonhole.test`));
    expect(requests.map((r) => r.url.search)).toEqual([
      "?limit=3",
      "?limit=3&page_token=tok_3",
      "?limit=3&page_token=tok_6",
    ]);
  });

  it("pages by hand with the result style", async () => {
    const { fetch } = pagedInboxes();
    const inbox = client(fetch);
    const ids: string[] = [];
    let page_token: string | undefined;
    do {
      const { data, error } = await inbox.GET("/v0/inboxes", { params: { query: { limit: 3, page_token } } });
      if (error) {
        throw new Error(error.error.message);
      }
      ids.push(...data.inboxes.map((i) => i.inbox_id));
      page_token = data.next_page_token ?? undefined;
    } while (page_token);
    expect(ids).toHaveLength(7);
  });

  it("yields pages, a first page, and stops early when asked", async () => {
    const { fetch, requests } = pagedInboxes();
    const inbox = client(fetch);
    const counts: number[] = [];
    for await (const page of inbox.paginate("/v0/inboxes", { params: { query: { limit: 3 } } }).pages()) {
      counts.push(page.count);
    }
    expect(counts).toEqual([3, 3, 1]);
    const first = await inbox.paginate("/v0/inboxes", { params: { query: { limit: 3 } } }).firstPage();
    expect(first.next_page_token).toBe("tok_3");
    const before = requests.length;
    expect(await inbox.paginate("/v0/inboxes", { params: { query: { limit: 3 } } }).toArray(4)).toHaveLength(4);
    expect(requests.length - before).toBe(2);
  });

  it("pages a path with parameters, such as an inbox's messages", async () => {
    const { fetch, requests } = fakeFetch([
      Response.json({ count: 1, limit: 20, next_page_token: "m2", messages: [{ message_id: "<a@x>" }] }),
      Response.json({ count: 1, limit: 20, next_page_token: null, messages: [{ message_id: "<b@x>" }] }),
    ]);
    const ids = [];
    for await (const message of client(fetch).paginate("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id } },
    })) {
      ids.push(message.message_id);
    }
    expect(ids).toEqual(["<a@x>", "<b@x>"]);
    expect(requests[1]?.url.pathname).toBe("/v0/inboxes/support%40pigeonhole.test/messages");
    expect(requests[1]?.url.search).toBe("?page_token=m2");
  });
});
