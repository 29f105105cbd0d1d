import { setTimeout } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordingLogger } from "../../test/support/recording-logger.ts";
import type { TestServer } from "../../test/support/test-server.ts";
import { ManualClock, responseValidator, startTestServer } from "../../test/support/test-server.ts";
import { systemClock } from "../clock.ts";
import { formatForumProblem } from "../forum/forum-errors.ts";
import { formatInboxProblem } from "../inbox/inbox-errors.ts";
import type { ServerLogger } from "../logger.ts";
import { createSpecAjv } from "../spec/ajv.ts";
import { compileSpecOperations } from "../spec/request-validator.ts";
import { loadSpecBundle } from "../spec/spec-bundle.ts";
import { listen } from "./listen.ts";
import type { OperationHandler } from "./operation-route.ts";
import type { RateLimiter } from "./rate-limiter.ts";
import { FixedWindowRateLimiter } from "./rate-limiter.ts";
import type { ServiceAppOptions } from "./service-app.ts";
import { createServiceApp } from "./service-app.ts";

const { logger: capture, lines } = recordingLogger();

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ logger: capture });
});
afterAll(() => t.server.close());

const forumOperations = compileSpecOperations(loadSpecBundle("forum"), "forum-operations");

/** A spec path with its parameters filled in by values of the right form (ids are UUIDs, names are names). */
const samplePath = (specPath: string) =>
  specPath.replace(/\{([^}]+)\}/g, (_match, name: string) =>
    name.endsWith("_id") ? "7c9e6679-7425-40de-944b-e07fc1f90ae7" : "general",
  );

const inboxUrl = (path: string) => `${t.server.inbox.url}${path}`;
const forumUrl = (path: string) => `${t.server.forum.url}${path}`;
const auth = (key: string) => ({ Authorization: `Bearer ${key}` });

async function expectConforming(service: "inbox" | "forum", method: string, specPath: string, response: Response) {
  const text = await response.text();
  const violations = responseValidator(service)({
    method,
    specPath,
    status: response.status,
    headers: response.headers,
    body: text === "" ? undefined : JSON.parse(text),
  });
  expect(violations).toEqual([]);
  return text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>);
}

/** Answers that no operation documents (a wrong method) must still be in the service's error envelope. */
const errorSchemas = {
  inbox: createSpecAjv(loadSpecBundle("inbox"), "inbox-errors").compile({
    $ref: "inbox-errors#/components/schemas/ErrorResponse",
  }),
  forum: createSpecAjv(loadSpecBundle("forum"), "forum-errors").compile({
    $ref: "forum-errors#/components/schemas/ErrorResponse",
  }),
};
function errorSchemaViolations(service: "inbox" | "forum", body: unknown) {
  const validate = errorSchemas[service];
  return validate(body) ? [] : (validate.errors ?? []);
}

describe("authentication", () => {
  const inboxPaths = [
    ["GET", "/v0/inboxes", "/v0/inboxes"],
    ["POST", "/v0/inboxes", "/v0/inboxes"],
    ["GET", "/v0/inboxes/a%40b.test", "/v0/inboxes/{inbox_id}"],
    ["POST", "/v0/inboxes/a%40b.test/messages", "/v0/inboxes/{inbox_id}/messages"],
    ["GET", "/v0/inboxes/a%40b.test/messages", "/v0/inboxes/{inbox_id}/messages"],
    ["GET", "/v0/inboxes/a%40b.test/messages/%3Cx%40y%3E", "/v0/inboxes/{inbox_id}/messages/{message_id}"],
    ["GET", "/v0/inboxes/a%40b.test/threads", "/v0/inboxes/{inbox_id}/threads"],
    ["GET", "/v0/inboxes/a%40b.test/threads/thd_x", "/v0/inboxes/{inbox_id}/threads/{thread_id}"],
    ["GET", "/v0/webhooks", "/v0/webhooks"],
    ["POST", "/v0/webhooks", "/v0/webhooks"],
    ["GET", "/v0/webhooks/wh_x", "/v0/webhooks/{webhook_id}"],
    ["PUT", "/v0/webhooks/wh_x", "/v0/webhooks/{webhook_id}"],
    ["DELETE", "/v0/webhooks/wh_x", "/v0/webhooks/{webhook_id}"],
  ] as const;

  it("answers 401 on every inbox path, missing or invalid key, in the envelope", async () => {
    for (const [method, path, specPath] of inboxPaths) {
      for (const [headers, code] of [
        [{}, "MISSING_API_KEY"],
        [{ Authorization: "Basic abc" }, "MISSING_API_KEY"],
        [auth("wrong-key"), "INVALID_API_KEY"],
        [auth(t.server.forum.apiKey), "INVALID_API_KEY"],
      ] as const) {
        const response = await fetch(inboxUrl(path), { method, headers });
        expect(response.status).toBe(401);
        const body = await expectConforming("inbox", method, specPath, response);
        expect(body?.error).toMatchObject({ type: "authentication_error", details: { field: null, code } });
      }
    }
  });

  it("answers 401 UNAUTHORIZED on every forum operation that needs a key, before validating anything", async () => {
    const needingKey = forumOperations.filter((operation) => !operation.public);
    expect(needingKey.map((operation) => operation.operationId)).toEqual(
      expect.arrayContaining(["getMe", "createCommunity", "deletePost", "deleteComment", "votePost"]),
    );
    for (const operation of needingKey) {
      // Once with well-formed parameters, once with malformed ones: the key is checked first either way.
      for (const path of [samplePath(operation.path), operation.path.replace(/\{[^}]+\}/g, "not%20valid")]) {
        for (const headers of [{}, auth("nope"), auth(t.server.inbox.apiKey)]) {
          const method = operation.method.toUpperCase();
          const response = await fetch(forumUrl(path), {
            method,
            headers,
            body: method === "POST" ? "{bad json" : undefined,
          });
          expect(response.status, `${method} ${path}`).toBe(401);
          const body = await expectConforming("forum", method, operation.path, response);
          expect(body).toMatchObject({ success: false, code: "UNAUTHORIZED" });
        }
      }
    }
  });

  it("answers 401 on unknown paths too, and 404 in the envelope once authenticated", async () => {
    expect((await fetch(inboxUrl("/v0/nothing-here"))).status).toBe(401);
    const inbox = await fetch(inboxUrl("/v0/nothing-here"), { headers: auth(t.server.inbox.apiKey) });
    expect(inbox.status).toBe(404);
    expect(((await inbox.json()) as { error: unknown }).error).toMatchObject({
      type: "not_found_error",
      details: { field: null, code: "NOT_FOUND" },
    });
    const forum = await fetch(forumUrl("/api/v2/posts"), { headers: auth(t.server.forum.apiKey) });
    expect(forum.status).toBe(404);
    expect(await forum.json()).toMatchObject({ success: false, code: "NOT_FOUND", hint: expect.any(String) });
  });

  it("serves /health without a key", async () => {
    for (const url of [inboxUrl("/health"), forumUrl("/health")]) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: "ok" });
    }
  });
});

describe("malformed requests", () => {
  it("answers a wrong method on a known path with 405 in the envelope, naming the methods in Allow", async () => {
    const inbox = await fetch(inboxUrl("/v0/webhooks/wh_x"), { method: "POST", headers: auth(t.server.inbox.apiKey) });
    expect(inbox.status).toBe(405);
    expect(inbox.headers.get("Allow")).toBe("GET, PUT, DELETE, PATCH");
    const inboxBody = await inbox.json();
    expect(errorSchemaViolations("inbox", inboxBody)).toEqual([]);
    expect(inboxBody).toMatchObject({
      error: { type: "validation_error", details: { field: null, code: "METHOD_NOT_ALLOWED" } },
    });
    const list = await fetch(inboxUrl("/v0/inboxes"), { method: "PATCH", headers: auth(t.server.inbox.apiKey) });
    expect(list.status).toBe(405);
    expect(list.headers.get("Allow")).toBe("GET, POST");

    const forum = await fetch(forumUrl("/api/v1/posts"), { method: "DELETE", headers: auth(t.server.forum.apiKey) });
    expect(forum.status).toBe(405);
    expect(forum.headers.get("Allow")).toBe("GET, POST");
    const forumBody = await forum.json();
    expect(errorSchemaViolations("forum", forumBody)).toEqual([]);
    expect(forumBody).toMatchObject({ success: false, code: "METHOD_NOT_ALLOWED", hint: expect.any(String) });
  });

  it("ignores query parameters an operation does not document", async () => {
    const unknown = "colour=blue&__proto__=x&constructor=1&toString=2&LIMIT=0";
    const inbox = await fetch(inboxUrl(`/v0/inboxes?${unknown}&limit=2`), { headers: auth(t.server.inbox.apiKey) });
    expect(inbox.status).toBe(200);
    expect(await expectConforming("inbox", "GET", "/v0/inboxes", inbox)).toMatchObject({ limit: 2 });
    const forum = await fetch(forumUrl(`/api/v1/posts?${unknown}&sort=new`), { headers: auth(t.server.forum.apiKey) });
    expect(forum.status).toBe(200);
    expect(await expectConforming("forum", "GET", "/api/v1/posts", forum)).toMatchObject({ success: true });
  });

  it("answers malformed JSON and non-JSON bodies with 400 INVALID_JSON", async () => {
    const headers = { ...auth(t.server.inbox.apiKey), "Content-Type": "application/json" };
    const broken = await fetch(inboxUrl("/v0/inboxes"), { method: "POST", headers, body: "{not json" });
    expect(broken.status).toBe(400);
    const body = await expectConforming("inbox", "POST", "/v0/inboxes", broken);
    expect(body?.error).toMatchObject({ type: "validation_error", details: { field: null, code: "INVALID_JSON" } });

    const text = await fetch(inboxUrl("/v0/inboxes"), {
      method: "POST",
      headers: { ...auth(t.server.inbox.apiKey), "Content-Type": "text/plain" },
      body: "{}",
    });
    expect(text.status).toBe(400);

    const forum = await fetch(forumUrl("/api/v1/posts"), {
      method: "POST",
      headers: { ...auth(t.server.forum.apiKey), "Content-Type": "application/json" },
      body: '{"title": ',
    });
    expect(forum.status).toBe(400);
    expect(await expectConforming("forum", "POST", "/api/v1/posts", forum)).toMatchObject({ code: "INVALID_JSON" });

    const array = await fetch(forumUrl("/api/v1/posts"), {
      method: "POST",
      headers: { ...auth(t.server.forum.apiKey), "Content-Type": "application/json" },
      body: "[1, 2]",
    });
    expect(await expectConforming("forum", "POST", "/api/v1/posts", array)).toMatchObject({
      code: "VALIDATION_ERROR",
      error: "The request body: must be an object.",
    });
  });

  it("answers 413 for a body over the service's limit", async () => {
    const forum = await fetch(forumUrl("/api/v1/posts"), {
      method: "POST",
      headers: { ...auth(t.server.forum.apiKey), "Content-Type": "application/json" },
      body: JSON.stringify({ title: "big", content: "x".repeat(1024 * 1024) }),
    });
    expect(forum.status).toBe(413);
    expect(await expectConforming("forum", "POST", "/api/v1/posts", forum)).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
    });

    const inbox = await fetch(inboxUrl("/v0/inboxes"), {
      method: "POST",
      headers: { ...auth(t.server.inbox.apiKey), "Content-Type": "application/json" },
      body: JSON.stringify({ display_name: "x".repeat(10 * 1024 * 1024) }),
    });
    expect(inbox.status).toBe(413);
    const body = await expectConforming("inbox", "POST", "/v0/inboxes", inbox);
    expect(body?.error).toMatchObject({ type: "payload_too_large_error", details: { code: "PAYLOAD_TOO_LARGE" } });
  });

  it("answers 400 for a repeated query parameter", async () => {
    const response = await fetch(inboxUrl("/v0/inboxes?limit=1&limit=2"), { headers: auth(t.server.inbox.apiKey) });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { details: unknown } }).error.details).toEqual({
      field: "limit",
      code: "INVALID_TYPE",
    });
  });
});

describe("headers and CORS", () => {
  it("sends a request id and the rate-limit headers on every answer, success or error", async () => {
    const ok = await fetch(inboxUrl("/v0/inboxes"), { headers: auth(t.server.inbox.apiKey) });
    const failed = await fetch(forumUrl("/api/v1/posts/x"), { headers: auth(t.server.forum.apiKey) });
    for (const response of [ok, failed]) {
      expect(response.headers.get("X-Request-Id")).toMatch(/^req_[0-9a-f]{16}$/);
      expect(Number(response.headers.get("X-RateLimit-Limit"))).toBeGreaterThan(0);
      expect(response.headers.get("X-RateLimit-Remaining")).toMatch(/^\d+$/);
      expect(Number(response.headers.get("X-RateLimit-Reset"))).toBeGreaterThan(Date.now() / 1000);
    }
    expect(ok.headers.get("X-Request-Id")).not.toBe(failed.headers.get("X-Request-Id"));
  });

  it("gives the answers Hono builds itself (/health, a preflight, HEAD) the same request id and CORS headers", async () => {
    const answers = [
      await fetch(forumUrl("/health")),
      await fetch(inboxUrl("/v0/inboxes"), {
        method: "OPTIONS",
        headers: { Origin: "http://localhost:4200", "Access-Control-Request-Method": "GET" },
      }),
      await fetch(inboxUrl("/v0/inboxes"), { method: "HEAD", headers: auth(t.server.inbox.apiKey) }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 204, 200]);
    for (const answer of answers) {
      expect(answer.headers.get("X-Request-Id")).toMatch(/^req_[0-9a-f]{16}$/);
      expect(answer.headers.get("Access-Control-Allow-Origin")).toBe("*");
    }
    const head = answers[2];
    expect(head?.headers.get("Content-Type")).toBe("application/json");
    expect(head?.headers.get("X-RateLimit-Limit")).toMatch(/^\d+$/);
    expect(await head?.text()).toBe("");
  });

  it("answers CORS preflights without a key and exposes every header a client reads", async () => {
    const preflight = await fetch(inboxUrl("/v0/inboxes"), {
      method: "OPTIONS",
      headers: {
        Origin: "http://localhost:4200",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toContain("idempotency-key");
    const origin = { Origin: "http://localhost:4200" };
    const answers = [
      await fetch(forumUrl("/api/v1/posts"), { headers: { ...auth(t.server.forum.apiKey), ...origin } }),
      await fetch(forumUrl("/api/v1/posts"), { headers: { ...auth("not-a-key"), ...origin } }),
      await fetch(inboxUrl("/v0/nowhere"), { headers: { ...auth(t.server.inbox.apiKey), ...origin } }),
      await fetch(inboxUrl("/v0/inboxes"), { method: "PATCH", headers: { ...auth(t.server.inbox.apiKey), ...origin } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 401, 404, 405]);
    for (const answer of answers) {
      expect(answer.headers.get("Access-Control-Allow-Origin")).toBe("*");
      const exposed = answer.headers.get("Access-Control-Expose-Headers") ?? "";
      for (const name of [
        "X-Request-Id",
        "X-RateLimit-Limit",
        "X-RateLimit-Remaining",
        "X-RateLimit-Reset",
        "Retry-After",
        "X-Should-Retry",
        "Allow",
      ]) {
        expect(exposed).toContain(name);
      }
    }
  });

  it("logs one line per request with its id, never the API key", async () => {
    lines.length = 0;
    const response = await fetch(inboxUrl("/v0/inboxes?limit=3"), { headers: auth(t.server.inbox.apiKey) });
    await response.text();
    const line = lines.find((l) => l.request_id === response.headers.get("X-Request-Id"));
    expect(line).toMatchObject({ msg: "request", service: "inbox", method: "GET", path: "/v0/inboxes", status: 200 });
    expect(typeof line?.duration_ms).toBe("number");
    expect(JSON.stringify(lines)).not.toContain(t.server.inbox.apiKey);
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After after the inbox's requests per minute, until the window resets", async () => {
    const clock = new ManualClock(Date.parse("2026-11-22T10:00:10.000Z"));
    const limited = await startTestServer({ clock, limits: { inboxRequestsPerMinute: 3 } });
    try {
      const call = () =>
        fetch(`${limited.server.inbox.url}/v0/inboxes`, { headers: auth(limited.server.inbox.apiKey) });
      const remaining = [];
      for (let i = 0; i < 3; i++) {
        const response = await call();
        expect(response.status).toBe(200);
        remaining.push(response.headers.get("X-RateLimit-Remaining"));
      }
      expect(remaining).toEqual(["2", "1", "0"]);
      const over = await call();
      expect(over.status).toBe(429);
      expect(over.headers.get("Retry-After")).toBe("50");
      expect(over.headers.get("X-RateLimit-Reset")).toBe(String(Date.parse("2026-11-22T10:01:00.000Z") / 1000));
      const body = await expectConforming("inbox", "GET", "/v0/inboxes", over);
      expect(body?.error).toMatchObject({ type: "rate_limit_error", details: { code: "RATE_LIMIT_EXCEEDED" } });
      // Another key has its own window.
      const other = await limited.server.createApiKey("inbox");
      expect((await fetch(`${limited.server.inbox.url}/v0/inboxes`, { headers: auth(other) })).status).toBe(200);
      clock.advance(50_000);
      expect((await call()).status).toBe(200);
    } finally {
      await limited.server.close();
    }
  });

  it("counts forum reads and writes separately", async () => {
    const clock = new ManualClock(Date.parse("2026-11-22T10:00:00.000Z"));
    const limited = await startTestServer({ clock, limits: { forumReadsPerMinute: 2, forumWritesPerMinute: 1 } });
    try {
      const headers = { ...auth(limited.server.forum.apiKey), "Content-Type": "application/json" };
      const read = () => fetch(`${limited.server.forum.url}/api/v1/posts`, { headers });
      const write = () =>
        fetch(`${limited.server.forum.url}/api/v1/posts`, {
          method: "POST",
          headers,
          body: JSON.stringify({ title: "t", content: "c" }),
        });
      expect((await write()).status).toBe(201);
      const secondWrite = await write();
      expect(secondWrite.status).toBe(429);
      const body = await expectConforming("forum", "POST", "/api/v1/posts", secondWrite);
      expect(body).toMatchObject({ code: "RATE_LIMITED", hint: "Try again in 60 seconds." });
      expect(secondWrite.headers.get("X-RateLimit-Limit")).toBe("1");
      expect(secondWrite.headers.get("Retry-After")).toBe("60");
      const firstRead = await read();
      expect(firstRead.status).toBe(200);
      expect(firstRead.headers.get("X-RateLimit-Limit")).toBe("2");
      expect((await read()).status).toBe(200);
      expect((await read()).status).toBe(429);
    } finally {
      await limited.server.close();
    }
  });
});

describe("rate limits kept elsewhere", () => {
  it("holds one limit over several apps sharing a limiter that answers asynchronously", async () => {
    const clock = new ManualClock(Date.parse("2026-11-22T10:00:30.000Z"));
    const counts = new FixedWindowRateLimiter(3, clock);
    // As a limiter backed by a database does, this one answers on a later turn of the event loop.
    const shared: RateLimiter = {
      async take(bucket) {
        await setTimeout(5);
        return counts.take(bucket);
      },
    };
    const listed: OperationHandler<string | null> = async () => ({
      status: 200,
      body: { count: 0, limit: 10, next_page_token: null, inboxes: [] },
    });
    const servers = await Promise.all(
      [1, 2].map(() =>
        listen(serviceApp("inbox", { handler: listed, rateLimit: () => shared.take("key:tenant") }), "127.0.0.1", 0),
      ),
    );
    try {
      const answers = [];
      for (let i = 0; i < 4; i++) {
        answers.push(await fetch(`${servers[i % 2]?.url}/v0/inboxes`, { headers: auth("k") }));
      }
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
      expect(answers.map((answer) => answer.headers.get("X-RateLimit-Remaining"))).toEqual(["2", "1", "0", "0"]);
      expect(answers[3]?.headers.get("Retry-After")).toBe("30");
      expect(await expectConforming("inbox", "GET", "/v0/inboxes", answers[3] as Response)).toMatchObject({
        error: { type: "rate_limit_error", message: "Rate limit of 3 requests per minute exceeded." },
      });
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });
});

describe("operations anyone may call", () => {
  it("serves an operation the spec marks security: [] without a key, while every other path answers 401 without one", async () => {
    const callers: (string | null)[] = [];
    const recording: OperationHandler<string | null> = async (_input, { caller }) => {
      callers.push(caller);
      return { status: 200, body: { served: true } };
    };
    const server = await listen(
      serviceApp("forum", {
        handler: recording,
        rateLimit: () => new FixedWindowRateLimiter(1_000, systemClock).take("x"),
      }),
      "127.0.0.1",
      0,
    );
    try {
      const open = forumOperations.filter((operation) => operation.public);
      expect(open.map((operation) => `${operation.method.toUpperCase()} ${operation.path}`)).toEqual([
        "POST /api/v1/agents/register",
      ]);
      const register = (headers: Record<string, string>) =>
        fetch(`${server.url}/api/v1/agents/register`, {
          method: "POST",
          headers: { "Content-Type": "application/json", ...headers },
          body: JSON.stringify({ name: "ada" }),
        });
      // Without a key, with an unknown one, or with a valid one: served, and never as the key's caller.
      for (const headers of [{}, auth("unknown"), auth("k")]) {
        const response = await register(headers);
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ served: true });
      }
      expect(callers).toEqual([null, null, null]);
      // It is still validated against the spec.
      const invalid = await fetch(`${server.url}/api/v1/agents/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: "No" }),
      });
      expect(invalid.status).toBe(400);

      callers.length = 0;
      const needingKey = forumOperations.filter((operation) => !operation.public);
      for (const operation of needingKey) {
        const method = operation.method.toUpperCase();
        const url = `${server.url}${samplePath(operation.path)}`;
        const body = method === "POST" ? "{}" : undefined;
        const headers = { "Content-Type": "application/json" };
        const without = await fetch(url, { method, headers, body });
        expect(without.status, `${method} ${operation.path}`).toBe(401);
        expect(await without.json()).toMatchObject({ success: false, code: "UNAUTHORIZED" });
        // The same request with the key reaches its handler (or the spec's validation), not the 401.
        const withKey = await fetch(url, { method, headers: { ...headers, ...auth("k") }, body });
        expect(withKey.status, `${method} ${operation.path} with a key`).not.toBe(401);
      }
      expect(callers.length).toBeGreaterThan(0);
      expect(callers.every((caller) => caller === "tenant")).toBe(true);
      // Another method on the open path, and an unknown path, need a key as well.
      for (const [method, path] of [
        ["GET", "/api/v1/agents/register"],
        ["DELETE", "/api/v1/agents/register"],
        ["POST", "/api/v1/agents"],
      ]) {
        expect((await fetch(`${server.url}${path}`, { method })).status, `${method} ${path}`).toBe(401);
      }
    } finally {
      await server.close();
    }
  });
});

describe("unexpected failures", () => {
  it("answers 500 INTERNAL_ERROR in each envelope and logs the error", async () => {
    const failing: OperationHandler<string | null> = async () => {
      throw new Error("disk on fire");
    };
    for (const [service, path] of [
      ["inbox", "/v0/inboxes"],
      ["forum", "/api/v1/posts"],
    ] as const) {
      const logged: string[] = [];
      const server = await listen(
        serviceApp(service, {
          handler: failing,
          rateLimit: () => new FixedWindowRateLimiter(100, systemClock).take("x"),
          logger: { ...capture, error: (message, fields) => logged.push(`${message} ${fields?.error}`) },
        }),
        "127.0.0.1",
        0,
      );
      try {
        const response = await fetch(`${server.url}${path}`, { headers: auth("k") });
        expect(response.status).toBe(500);
        const body = await expectConforming(service, "GET", path, response);
        expect(JSON.stringify(body)).toContain("INTERNAL_ERROR");
        expect(JSON.stringify(body)).not.toContain("disk on fire");
        expect(logged.join()).toContain("disk on fire");
      } finally {
        await server.close();
      }
    }
  });
});

/**
 * A service app whose every operation is `handler`, for the key "k" only; the operations the spec marks
 * `security: []` are `handler` too, served with no caller.
 */
function serviceApp(
  service: "inbox" | "forum",
  options: Pick<ServiceAppOptions<string, string>, "rateLimit"> & {
    handler: OperationHandler<string | null>;
    logger?: ServerLogger;
  },
) {
  const operations = compileSpecOperations(loadSpecBundle(service), service);
  const handlers = (open: boolean) =>
    Object.fromEntries(operations.filter((o) => o.public === open).map((o) => [o.operationId, options.handler]));
  return createServiceApp<string>({
    service,
    operations,
    handlers: handlers(false),
    publicHandlers: handlers(true),
    formatProblem: service === "inbox" ? formatInboxProblem : formatForumProblem,
    authenticate: async (key) => (key === "k" ? "tenant" : null),
    rateLimit: options.rateLimit,
    maxBodyBytes: 1024,
    logger: options.logger ?? capture,
  });
}
