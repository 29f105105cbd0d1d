import { fakeFetch, type Step } from "@pigeonhole/fake-fetch";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type MailErrorResponse, mailError, mailErrors } from "../test/two-services.js";
import { type ClientOptions, createApiClient, type ServiceDefinition } from "./client.js";
import { APIConnectionTimeoutError, APIUserAbortError, PigeonholeError } from "./errors.js";
import type { RetryEvent } from "./hooks.js";
import { type OffsetPage, offsetCursor, type TokenPage, tokenCursor } from "./list-pages.js";
import { createLogger, type Logger } from "./logger.js";

// A four-path API's call table, in the shape openapi-call-table generates.
interface Thing {
  id: string;
}
type ErrorBody = MailErrorResponse;
interface Call<Init extends object, Required extends boolean, Data, Item = never> {
  operation: unknown;
  init: Init;
  required: Required;
  data: Data;
  error: ErrorBody;
  item: Item;
  download: false;
}
interface ThingsPage {
  things: Thing[];
  next_page_token: string | null;
  has_more: boolean;
  next_offset: number;
}
type ById = { params: { path: { id: string } }; body?: never };
type calls = {
  get: {
    "/v1/things": Call<
      { params?: { query?: { limit?: number; page_token?: string; offset?: number } }; body?: never },
      false,
      ThingsPage,
      Thing
    >;
    "/v1/things/{id}": Call<ById, true, Thing>;
  };
  put: Record<never, never>;
  post: {
    "/v1/things": Call<{ params?: { query?: never }; body: { name: string } }, true, Thing>;
    "/v1/things/{id}/flip": Call<ById, true, Thing>;
    "/v1/signup": Call<{ params?: { query?: never }; body: { name: string } }, true, { key: string }>;
  };
  patch: Record<never, never>;
  delete: Record<never, never>;
};

const tokenService: ServiceDefinition<TokenPage> = {
  factory: "createThingsClient",
  apiKeyEnv: "THINGS_API_KEY",
  baseUrlEnv: "THINGS_BASE_URL",
  defaultBaseUrl: "http://127.0.0.1:4999",
  idempotencyHeader: "Idempotency-Key",
  pageCursor: tokenCursor,
  errors: mailErrors,
};
const offsetService: ServiceDefinition<OffsetPage> = { ...tokenService, pageCursor: offsetCursor };

/** A 503 that asks for an immediate retry, so tests do not wait out the backoff. */
const unavailable = () => new Response(null, { status: 503, headers: { "retry-after-ms": "0" } });

const tokenClient = (options: ClientOptions) => createApiClient<calls, TokenPage>(tokenService, options);

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("configuration", () => {
  it("sends the API key as a bearer token to the base URL", async () => {
    const { fetch, requests } = fakeFetch();
    await tokenClient({ apiKey: "key_1", baseUrl: "https://things.test/", fetch }).get("/v1/things");
    expect(requests[0]?.url.href).toBe("https://things.test/v1/things");
    expect(requests[0]?.headers.get("authorization")).toBe("Bearer key_1");
  });

  it("falls back to the environment for the key and the base URL", async () => {
    vi.stubEnv("THINGS_API_KEY", "key_from_env");
    vi.stubEnv("THINGS_BASE_URL", "https://env.things.test");
    const { fetch, requests } = fakeFetch();
    await tokenClient({ fetch }).get("/v1/things");
    expect(requests[0]?.url.href).toBe("https://env.things.test/v1/things");
    expect(requests[0]?.headers.get("authorization")).toBe("Bearer key_from_env");
  });

  it("prefers options over the environment", async () => {
    vi.stubEnv("THINGS_API_KEY", "key_from_env");
    vi.stubEnv("THINGS_BASE_URL", "https://env.things.test");
    const { fetch, requests } = fakeFetch();
    await tokenClient({ apiKey: "key_1", baseUrl: "https://things.test", fetch }).get("/v1/things");
    expect(requests[0]?.url.href).toBe("https://things.test/v1/things");
    expect(requests[0]?.headers.get("authorization")).toBe("Bearer key_1");
  });

  it("defaults to the service's local address", async () => {
    vi.stubEnv("THINGS_BASE_URL", "");
    const { fetch, requests } = fakeFetch();
    await tokenClient({ apiKey: "k", fetch }).get("/v1/things");
    expect(requests[0]?.url.href).toBe("http://127.0.0.1:4999/v1/things");
  });

  it("names the option and the variable when there is no key", () => {
    vi.stubEnv("THINGS_API_KEY", "");
    expect(() => tokenClient({})).toThrow(PigeonholeError);
    expect(() => tokenClient({})).toThrow(
      "Missing API key: pass { apiKey } to createThingsClient() or set the THINGS_API_KEY environment variable.",
    );
    expect(() => tokenClient({ apiKey: "  " })).toThrow("Missing API key");
  });

  it("works where there is no process at all, as in a browser", async () => {
    vi.stubGlobal("process", undefined);
    try {
      expect(() => tokenClient({})).toThrow("Missing API key");
      const { fetch, requests } = fakeFetch();
      await tokenClient({ apiKey: "k", fetch }).get("/v1/things");
      expect(requests[0]?.url.href).toBe("http://127.0.0.1:4999/v1/things");
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("rejects a base URL that is not absolute", () => {
    expect(() => tokenClient({ apiKey: "k", baseUrl: "things.test" })).toThrow(
      'Invalid baseUrl "things.test": expected an absolute URL such as http://127.0.0.1:4999.',
    );
  });

  it("rejects invalid timeout and maxRetries at construction", () => {
    expect(() => tokenClient({ apiKey: "k", timeout: -1 })).toThrow(RangeError);
    expect(() => tokenClient({ apiKey: "k", maxRetries: 0.5 })).toThrow(RangeError);
  });

  it("sends default headers, which may replace or remove the client's own", async () => {
    const { fetch, requests } = fakeFetch();
    await tokenClient({ apiKey: "k", fetch, defaultHeaders: { "x-team": "mail" } }).get("/v1/things");
    await tokenClient({ apiKey: "k", fetch, defaultHeaders: new Headers({ authorization: "Basic abc" }) }).get(
      "/v1/things",
    );
    await tokenClient({ apiKey: "k", fetch, defaultHeaders: { Authorization: null } }).get("/v1/things");
    expect(requests[0]?.headers.get("x-team")).toBe("mail");
    expect(requests[1]?.headers.get("authorization")).toBe("Basic abc");
    expect(requests[2]?.headers.has("authorization")).toBe(false);
  });

  it("withOptions changes some options and keeps the rest", async () => {
    const { fetch, requests } = fakeFetch([], unavailable);
    const client = tokenClient({ apiKey: "k", baseUrl: "https://things.test", fetch, maxRetries: 0 });
    const patient = client.withOptions({ maxRetries: 1, timeout: 1_000 });
    const before = requests.length;
    await patient.GET("/v1/things");
    expect(requests.length - before).toBe(2);
    expect(requests.at(-1)?.url.href).toBe("https://things.test/v1/things");
    await client.GET("/v1/things");
    expect(requests.length - before).toBe(3);
  });
});

describe("call styles", () => {
  const thing = { id: "t1" };
  const answer = (request: Request) =>
    request.url.endsWith("/missing")
      ? Response.json(mailError("NOT_FOUND", "No such thing"), { status: 404, headers: { "x-request-id": "req_404" } })
      : Response.json(thing, { status: request.method === "POST" ? 201 : 200 });

  it("result style returns data or error without throwing", async () => {
    const { fetch } = fakeFetch([], answer);
    const client = tokenClient({ apiKey: "k", fetch });
    const found = await client.GET("/v1/things/{id}", { params: { path: { id: "t1" } } });
    expect(found.data).toEqual(thing);
    expect(found.error).toBeUndefined();
    const missing = await client.GET("/v1/things/{id}", { params: { path: { id: "missing" } } });
    expect(missing.data).toBeUndefined();
    expect(missing.error).toEqual(mailError("NOT_FOUND", "No such thing"));
    expect(missing.response.status).toBe(404);
  });

  it("throwing style returns data or throws the status's error class", async () => {
    const { fetch } = fakeFetch([], answer);
    const client = tokenClient({ apiKey: "k", fetch });
    await expect(client.post("/v1/things", { body: { name: "x" } })).resolves.toEqual(thing);
    const error = await client.get("/v1/things/{id}", { params: { path: { id: "missing" } } }).catch((e) => e);
    expect(error).toBeInstanceOf(mailErrors.NotFoundError);
    expect(error).toMatchObject({ status: 404, requestId: "req_404", body: mailError("NOT_FOUND", "No such thing") });
    expect(error.message).toBe("404 NOT_FOUND: No such thing (request req_404)");
  });

  it("passes per-call options from either style to the transport", async () => {
    const { fetch, requests } = fakeFetch([], unavailable);
    const client = tokenClient({ apiKey: "k", fetch, maxRetries: 0 });
    await client.GET("/v1/things", { maxRetries: 2 });
    expect(requests).toHaveLength(3);
    await client
      .post("/v1/things", { body: { name: "x" }, maxRetries: 1, idempotencyKey: "k-1" })
      .catch(() => undefined);
    expect(requests.slice(3).map((r) => r.headers.get("idempotency-key"))).toEqual(["k-1", "k-1"]);
  });

  it("rejects with APIUserAbortError when the caller's signal aborts", async () => {
    const { fetch } = fakeFetch();
    const client = tokenClient({ apiKey: "k", fetch });
    await expect(client.get("/v1/things", { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it("runs openapi-fetch middleware for both styles", async () => {
    const { fetch, requests } = fakeFetch();
    const client = tokenClient({ apiKey: "k", fetch });
    const middleware = {
      onRequest: ({ request }: { request: Request }) => {
        request.headers.set("x-traced", "yes");
        return request;
      },
    };
    client.use(middleware);
    await client.get("/v1/things");
    await client.GET("/v1/things");
    client.eject(middleware);
    await client.get("/v1/things");
    expect(requests.map((r) => r.headers.get("x-traced"))).toEqual(["yes", "yes", null]);
  });
});

describe("a service with operations that need no key", () => {
  const openService: ServiceDefinition<TokenPage> = {
    ...tokenService,
    publicOperations: new Set(["POST /v1/signup"]),
  };
  const openClient = (options: ClientOptions) => createApiClient<calls, TokenPage>(openService, options);

  it("makes a client without a key, which calls those operations with no Authorization header", async () => {
    vi.stubEnv("THINGS_API_KEY", "");
    const { fetch, requests } = fakeFetch([Response.json({ key: "key_new" }, { status: 201 })]);
    await expect(openClient({ fetch }).post("/v1/signup", { body: { name: "ada" } })).resolves.toEqual({
      key: "key_new",
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers.has("authorization")).toBe(false);
  });

  it("rejects any other call of that client before sending it, naming the call, the option and the variable", async () => {
    vi.stubEnv("THINGS_API_KEY", "");
    const { fetch, requests } = fakeFetch();
    const client = openClient({ fetch });
    const message =
      "Missing API key for GET /v1/things: pass { apiKey } to createThingsClient() or set the THINGS_API_KEY environment variable.";
    await expect(client.get("/v1/things")).rejects.toThrow(message);
    await expect(client.GET("/v1/things")).rejects.toBeInstanceOf(PigeonholeError);
    await expect(client.paginate("/v1/things").toArray()).rejects.toThrow(message);
    await expect(client.post("/v1/things/{id}/flip", { params: { path: { id: "t1" } } })).rejects.toThrow(
      "Missing API key for POST /v1/things/{id}/flip",
    );
    expect(requests).toEqual([]);
  });

  it("sends the key, when there is one, on every call", async () => {
    const { fetch, requests } = fakeFetch();
    const client = openClient({ apiKey: "key_1", fetch });
    await client.post("/v1/signup", { body: { name: "ada" } });
    await client.get("/v1/things");
    expect(requests.map((r) => r.headers.get("authorization"))).toEqual(["Bearer key_1", "Bearer key_1"]);
  });
});

describe("a service whose idempotency header only some writes take", () => {
  const selective: ServiceDefinition<TokenPage> = {
    ...tokenService,
    idempotentOperations: new Set(["POST /v1/things"]),
  };
  const client = (fetch: ClientOptions["fetch"]) =>
    createApiClient<calls, TokenPage>(selective, { apiKey: "k", fetch });
  const flip = (
    fetch: ClientOptions["fetch"],
    init: { fetch?: ClientOptions["fetch"]; idempotencyKey?: string } = {},
  ) => client(fetch).post("/v1/things/{id}/flip", { params: { path: { id: "t1" } }, ...init });

  it("sends one key on every attempt of a write that takes it, and retries it after a 503", async () => {
    const { fetch, requests } = fakeFetch([503, 503, Response.json({ id: "t1" }, { status: 201 })]);
    await expect(client(fetch).post("/v1/things", { body: { name: "x" } })).resolves.toEqual({ id: "t1" });
    const keys = requests.map((r) => r.headers.get("idempotency-key"));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys).toEqual([keys[0], keys[0], keys[0]]);
  });

  it("sends no key with another write, and does not repeat it after a 503", async () => {
    const { fetch, requests } = fakeFetch([503, Response.json({ id: "t1" })]);
    await expect(flip(fetch)).rejects.toMatchObject({ status: 503 });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers.has("idempotency-key")).toBe(false);
  });

  it("treats a per-call fetch the same way", async () => {
    const own = fakeFetch([503, Response.json({ id: "t1" })]);
    await expect(flip(fakeFetch().fetch, { fetch: own.fetch })).rejects.toMatchObject({ status: 503 });
    expect(own.requests).toHaveLength(1);
    expect(own.requests[0]?.headers.has("idempotency-key")).toBe(false);
  });

  it("refuses an idempotencyKey for a write that does not take it, sending nothing", async () => {
    const { fetch, requests } = fakeFetch();
    await expect(flip(fetch, { idempotencyKey: "k-1" })).rejects.toThrow(
      "POST /v1/things/{id}/flip takes no Idempotency-Key: remove idempotencyKey from this call.",
    );
    expect(requests).toEqual([]);
  });

  it("still retries reads", async () => {
    const { fetch, requests } = fakeFetch([503, Response.json({ things: [], next_page_token: null })]);
    await client(fetch).get("/v1/things");
    expect(requests).toHaveLength(2);
  });
});

describe("paginate", () => {
  const things = (...ids: string[]) => ids.map((id) => ({ id }));

  it("follows page tokens across pages", async () => {
    const pages: Record<string, object> = {
      "": { things: things("a", "b"), next_page_token: "p2" },
      p2: { things: things("c"), next_page_token: "p3" },
      p3: { things: things(), next_page_token: null },
    };
    const { fetch, requests } = fakeFetch([], (request) =>
      Response.json(pages[new URL(request.url).searchParams.get("page_token") ?? ""]),
    );
    const client = tokenClient({ apiKey: "k", fetch });
    const ids: string[] = [];
    for await (const thing of client.paginate("/v1/things", { params: { query: { limit: 2 } } })) {
      ids.push(thing.id);
    }
    expect(ids).toEqual(["a", "b", "c"]);
    expect(requests.map((r) => new URL(r.url).search)).toEqual([
      "?limit=2",
      "?limit=2&page_token=p2",
      "?limit=2&page_token=p3",
    ]);
  });

  it("follows offsets while has_more", async () => {
    const { fetch, requests } = fakeFetch([], (request) => {
      const offset = Number(new URL(request.url).searchParams.get("offset") ?? 0);
      const all = things("a", "b", "c", "d", "e");
      return Response.json({
        things: all.slice(offset, offset + 2),
        has_more: offset + 2 < 5,
        next_offset: offset + 2,
      });
    });
    const client = createApiClient<calls, OffsetPage>(offsetService, { apiKey: "k", fetch });
    const ids = (await client.paginate("/v1/things", { params: { query: { limit: 2 } } }).toArray()).map((t) => t.id);
    expect(ids).toEqual(["a", "b", "c", "d", "e"]);
    expect(requests.map((r) => new URL(r.url).searchParams.get("offset"))).toEqual([null, "2", "4"]);
  });

  it("starts from a cursor given in the query", async () => {
    const { fetch, requests } = fakeFetch([], () => Response.json({ things: things("x"), next_page_token: null }));
    const client = tokenClient({ apiKey: "k", fetch });
    await client.paginate("/v1/things", { params: { query: { page_token: "p7" } } }).toArray();
    expect((requests[0]?.url ?? new URL("http://x")).searchParams.get("page_token")).toBe("p7");
  });

  it("yields whole pages and a first page", async () => {
    const { fetch, requests } = fakeFetch([], () => Response.json({ things: things("a"), next_page_token: null }));
    const client = tokenClient({ apiKey: "k", fetch });
    const first = await client.paginate("/v1/things").firstPage();
    expect(first).toEqual({ things: things("a"), next_page_token: null });
    const pages = [];
    for await (const page of client.paginate("/v1/things").pages()) {
      pages.push(page);
    }
    expect(pages).toEqual([first]);
    expect(requests).toHaveLength(2);
  });

  it("throws the API error of a failing page", async () => {
    const { fetch } = fakeFetch([], () => Response.json({ message: "bad token" }, { status: 400 }));
    const client = tokenClient({ apiKey: "k", fetch });
    await expect(client.paginate("/v1/things").toArray()).rejects.toThrow("400 bad token");
  });

  it("says so when a page does not hold exactly one list", async () => {
    const { fetch } = fakeFetch([], () => Response.json({ a: [], b: [], next_page_token: null }));
    const client = tokenClient({ apiKey: "k", fetch });
    await expect(client.paginate("/v1/things").toArray()).rejects.toThrow("exactly one array of items");
  });
});

describe("with the runtime's own fetch", () => {
  /** Puts the scripted fake fetch in place of globalThis.fetch. */
  function stubGlobalFetch(...steps: Step[]) {
    const server = fakeFetch(steps, () => Response.json({ id: "t1" }));
    vi.stubGlobal("fetch", server.fetch);
    return server;
  }

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("re-sends the same body, headers and idempotency key on each retry", async () => {
    const { requests } = stubGlobalFetch(unavailable(), unavailable(), Response.json({ id: "t2" }, { status: 201 }));
    await expect(tokenClient({ apiKey: "k" }).post("/v1/things", { body: { name: "x" } })).resolves.toEqual({
      id: "t2",
    });
    expect(requests.map((r) => r.body)).toEqual(['{"name":"x"}', '{"name":"x"}', '{"name":"x"}']);
    const keys = requests.map((r) => r.headers.get("idempotency-key"));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(requests.map((r) => r.headers.get("content-type"))).toEqual(Array(3).fill("application/json"));
  });

  it("times out through the init's signal", async () => {
    const { requests } = stubGlobalFetch("hang", "hang");
    const error = await tokenClient({ apiKey: "k", timeout: 10, maxRetries: 1 })
      .get("/v1/things")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(requests).toHaveLength(2);
  });

  it("applies per-call options", async () => {
    const { requests } = stubGlobalFetch(unavailable(), unavailable());
    await tokenClient({ apiKey: "k" }).GET("/v1/things", { maxRetries: 1 });
    expect(requests).toHaveLength(2);
  });

  it("aborts the attempt when the caller's signal aborts", async () => {
    const { requests } = stubGlobalFetch("hang");
    const controller = new AbortController();
    const done = tokenClient({ apiKey: "k" }).get("/v1/things", { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(done).rejects.toBeInstanceOf(APIUserAbortError);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.signal.aborted).toBe(true);
  });
});

describe("a per-call fetch", () => {
  it("goes through the transport: retries, idempotency key and timeout", async () => {
    const client = tokenClient({ apiKey: "k", fetch: fakeFetch().fetch });
    const own = fakeFetch([503, 503, Response.json({ id: "t3" }, { status: 201 })]);
    await expect(client.post("/v1/things", { body: { name: "x" }, fetch: own.fetch })).resolves.toEqual({ id: "t3" });
    expect(own.requests).toHaveLength(3);
    const keys = own.requests.map((r) => r.headers.get("idempotency-key"));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);

    const hanging = fakeFetch([], "hang");
    await expect(client.GET("/v1/things", { fetch: hanging.fetch, timeout: 10, maxRetries: 1 })).rejects.toBeInstanceOf(
      APIConnectionTimeoutError,
    );
    expect(hanging.requests).toHaveLength(2);
  });

  it("leaves the client's own fetch for the other calls", async () => {
    const shared = fakeFetch();
    const client = tokenClient({ apiKey: "k", fetch: shared.fetch });
    await client.get("/v1/things", { fetch: fakeFetch().fetch });
    await client.get("/v1/things");
    expect(shared.requests).toHaveLength(1);
  });
});

describe("withOptions", () => {
  const tracing = (name: string) => ({
    onRequest: ({ request }: { request: Request }) => {
      request.headers.append("x-trace", name);
      return request;
    },
  });

  it("keeps the middleware added with use()", async () => {
    const { fetch, requests } = fakeFetch();
    const client = tokenClient({ apiKey: "k", fetch });
    const first = tracing("first");
    client.use(first, tracing("second"));
    client.eject(first);
    const derived = client.withOptions({ timeout: 1_000 });
    await derived.get("/v1/things");
    expect(requests[0]?.headers.get("x-trace")).toBe("second");
  });

  it("leaves each client's later use() and eject() to that client", async () => {
    const { fetch, requests } = fakeFetch();
    const client = tokenClient({ apiKey: "k", fetch });
    const shared = tracing("shared");
    client.use(shared);
    const derived = client.withOptions({});
    derived.eject(shared);
    derived.use(tracing("derived"));
    client.use(tracing("parent"));
    await client.get("/v1/things");
    await derived.get("/v1/things");
    expect(requests.map((r) => r.headers.get("x-trace"))).toEqual(["shared, parent", "derived"]);
  });
});

describe("hooks", () => {
  it("reports retries to the client's onRetry, and withOptions can replace it", async () => {
    const { fetch } = fakeFetch([], unavailable);
    const seen: RetryEvent[] = [];
    const client = tokenClient({ apiKey: "k", fetch, maxRetries: 1, onRetry: (retry) => seen.push(retry) });
    await client.GET("/v1/things/{id}", { params: { path: { id: "t1" } } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ attempt: 1, delay: 0, reason: 503, requestId: null });
    expect(seen[0]?.request.url).toBe("http://127.0.0.1:4999/v1/things/t1");

    const elsewhere: number[] = [];
    await client.withOptions({ onRetry: ({ attempt }) => elsewhere.push(attempt) }).GET("/v1/things");
    expect(elsewhere).toEqual([1]);
    expect(seen).toHaveLength(1);
  });

  it("runs a call's own hooks after the client's, for that call only", async () => {
    const { fetch } = fakeFetch([503], () => Response.json({ id: "t" }));
    const order: string[] = [];
    const client = tokenClient({ apiKey: "k", fetch, onRetry: ({ attempt }) => order.push(`client ${attempt}`) });
    await client.get("/v1/things", {
      onRequest: ({ attempt }) => order.push(`call request ${attempt}`),
      onResponse: ({ response }) => order.push(`call response ${response.status}`),
      onRetry: ({ attempt, reason }) => order.push(`call retry ${attempt} ${reason}`),
    });
    await client.get("/v1/things");
    expect(order).toEqual([
      "call request 1",
      "call response 503",
      "client 1",
      "call retry 1 503",
      "call request 2",
      "call response 200",
    ]);
  });

  it("reports each attempt and each answer", async () => {
    const { fetch } = fakeFetch();
    const attempts: string[] = [];
    const client = tokenClient({
      apiKey: "k",
      fetch,
      onRequest: ({ request, attempt }) => attempts.push(`${request.method} ${attempt}`),
      onResponse: ({ response, attempt }) => attempts.push(`${response.status} ${attempt}`),
    });
    await client.post("/v1/things", { body: { name: "x" } });
    expect(attempts).toEqual(["POST 1", "200 1"]);
  });
});

describe("logging", () => {
  it("never logs the API key, at any level, across retries and errors", async () => {
    const secret = "pk_live_must_not_appear";
    const lines: unknown[] = [];
    const record = (...args: unknown[]) => lines.push(args);
    const logger: Logger = { debug: record, info: record, warn: record, error: record };
    const { fetch } = fakeFetch(
      [new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }), unavailable()],
      () => Response.json({ id: "t" }),
    );
    const client = tokenClient({ apiKey: secret, fetch, logger: createLogger("debug", logger) });
    await client.get("/v1/things/{id}", { params: { path: { id: "t" } } });
    await client.post("/v1/things", { body: { name: "x" } });
    expect(lines.length).toBeGreaterThan(6);
    expect(JSON.stringify(lines)).not.toContain(secret);
    expect(JSON.stringify(lines)).toContain('"authorization":"***"');
  });
});

describe("logging at the default level", () => {
  it("tells a logger about spent retries and lost answers, never the API key", async () => {
    const secret = "pk_live_default_level";
    const lines: { level: string; message: string; data?: Record<string, unknown> }[] = [];
    const at = (level: string) => (message: string, data?: Record<string, unknown>) => {
      lines.push({ level, message, ...(data ? { data } : {}) });
    };
    const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
    const { fetch } = fakeFetch([503, 503, 503, new TypeError("fetch failed")]);
    const client = tokenClient({
      apiKey: secret,
      baseUrl: "https://things.test",
      fetch,
      logger: createLogger(undefined, logger),
    });
    await expect(client.get("/v1/things")).rejects.toMatchObject({ status: 503 });
    await expect(client.post("/v1/things", { body: { name: secret } })).resolves.toEqual({});
    await expect(
      client.get("/v1/things/{id}", { params: { path: { id: "t" } }, fetch: fakeFetch([], "hang").fetch, timeout: 5 }),
    ).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    expect(lines.map((line) => `${line.level} ${line.message}`)).toEqual(["warn gave up retrying", "warn no response"]);
    expect(lines[0]?.data).toMatchObject({ method: "GET", url: "https://things.test/v1/things", attempt: 3 });
    expect(lines[1]?.data).toMatchObject({
      url: "https://things.test/v1/things/t",
      reason: "APIConnectionTimeoutError",
    });
    expect(JSON.stringify(lines)).not.toContain(secret);
  });
});
