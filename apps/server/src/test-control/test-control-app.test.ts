import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testControlOf } from "../../test/support/test-control-requests.ts";
import { newTestDatabase } from "../../test/support/test-database.ts";
import type { TestServer } from "../../test/support/test-server.ts";
import { startTestServer } from "../../test/support/test-server.ts";
import { InvalidOptionError, resolveOptions } from "../options.ts";
import type { Server } from "../server.ts";
import { startServer } from "../server.ts";

// Where test control answers, to whom, and that a production start-up has none of it.

/** An answer's status, body and headers, without those that differ on every request. */
async function answerOf(response: Response) {
  const headers = Object.fromEntries(
    [...response.headers].filter(
      ([name]) => !["x-request-id", "date", "x-ratelimit-remaining", "x-ratelimit-reset"].includes(name),
    ),
  );
  return { status: response.status, headers, body: await response.text() };
}

describe("test control on a local server", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ limits: { inboxRequestsPerMinute: 2, forumReadsPerMinute: 2 } });
  });
  afterAll(() => t.server.close());

  it("is on with the default key, on the inbox port (what createTestControl takes)", () => {
    expect(t.server.testControl).toEqual({ baseUrl: t.server.inbox.url, key: "pigeonhole-test-control-dev" });
  });

  it("answers on both ports with the same state, each answer with a request id", async () => {
    const onInbox = testControlOf(t.server);
    const onForum = testControlOf(t.server, t.server.forum.url);
    const advanced = await onForum.advance(1_000);
    expect(advanced.status).toBe(200);
    expect(advanced.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{16}$/);
    const read = await onInbox.clock();
    expect(read.body.offset_ms).toBeGreaterThanOrEqual(1_000);
    expect(read.body.offset_ms).toBeLessThan(1_000 + 5_000);
  });

  it("refuses a missing key, a wrong one, and the services' own keys with 401", async () => {
    const clock = `${t.server.inbox.url}/_test/clock`;
    const codes = [];
    for (const headers of [
      {} as Record<string, string>,
      { authorization: "Bearer nope" },
      { authorization: `Bearer ${t.server.inbox.apiKey}` },
      { authorization: `Bearer ${t.server.forum.apiKey}` },
    ]) {
      const response = await fetch(clock, { headers });
      expect(response.status).toBe(401);
      const body = (await response.json()) as { error: { type: string; details: { code: string } } };
      expect(body.error.type).toBe("authentication_error");
      codes.push(body.error.details.code);
    }
    expect(codes).toEqual(["MISSING_API_KEY", "INVALID_API_KEY", "INVALID_API_KEY", "INVALID_API_KEY"]);
  });

  it("answers bad input with 400 in the inbox envelope, never 500", async () => {
    const control = testControlOf(t.server);
    const cases: [string, string, unknown, unknown, unknown][] = [
      ["POST", "/clock/advance", { ms: 0 }, "ms", "INVALID_VALUE"],
      ["POST", "/clock/advance", { ms: "1" }, "ms", "INVALID_TYPE"],
      ["POST", "/clock/advance", {}, "ms", "REQUIRED"],
      ["PUT", "/clock", { now: "yesterday" }, "now", "INVALID_VALUE"],
      // A leap second passes the date-time format but is no instant the clock can hold.
      ["PUT", "/clock", { now: "2099-12-31T23:59:60Z" }, "now", "INVALID_VALUE"],
      [
        "POST",
        "/faults",
        { target: "request", match: { path: "/v0/x" }, action: { type: "respond", status: 200 } },
        "action.status",
        "INVALID_VALUE",
      ],
      ["POST", "/faults", { target: "nope" }, expect.any(String), expect.any(String)],
      ["POST", "/reset", { api_key: "" }, "api_key", "INVALID_VALUE"],
    ];
    for (const [method, path, body, field, code] of cases) {
      const answer = await control.call<{ error: { type: string; details: unknown } }>(method, path, body);
      expect({ path, body, status: answer.status, error: answer.body.error }).toMatchObject({
        status: 400,
        error: { type: "validation_error", details: { field, code } },
      });
    }
    const raw = await fetch(`${t.server.inbox.url}/_test/clock`, {
      method: "PUT",
      headers: { authorization: `Bearer ${t.server.testControl?.key}`, "content-type": "application/json" },
      body: "{",
    });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as { error: { details: { code: string } } }).error.details.code).toBe("INVALID_JSON");
  });

  it("is never rate limited, and counts against no key's limit", async () => {
    const control = testControlOf(t.server);
    for (let i = 0; i < 5; i++) {
      const answer = await control.clock();
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-ratelimit-limit")).toBeNull();
    }
    const list = await fetch(`${t.server.inbox.url}/v0/inboxes`, {
      headers: { authorization: `Bearer ${t.server.inbox.apiKey}` },
    });
    expect(list.headers.get("x-ratelimit-remaining")).toBe("1");
  });

  it("answers an unknown test-control path 404 and a wrong method 405, in its envelope on both ports", async () => {
    for (const base of [t.server.inbox.url, t.server.forum.url]) {
      const control = testControlOf(t.server, base);
      const unknown = await control.call<{ error: { type: string } }>("GET", "/nothing");
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.type).toBe("not_found_error");
      const wrong = await control.call<{ error: { details: { code: string } } }>("DELETE", "/clock");
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get("allow")).toBe("GET, PUT");
      expect(wrong.body.error.details.code).toBe("METHOD_NOT_ALLOWED");
    }
  });
});

describe("test control turned off", () => {
  /**
   * Every /_test answer is the answer of an unknown path of the same length, byte for byte but for the path it
   * names, to a caller with a valid key of the service.
   */
  async function expectUnknown(server: Server<string | null>) {
    expect(server.testControl).toBeNull();
    for (const [base, key] of [
      [server.inbox.url, server.inbox.apiKey ?? (await server.createApiKey("inbox"))],
      [server.forum.url, server.forum.apiKey ?? (await server.createApiKey("forum"))],
    ] as const) {
      for (const [method, path] of [
        ["GET", "/clock"],
        ["POST", "/reset"],
        ["GET", "/faults/flt_x"],
      ]) {
        const headers = { authorization: `Bearer ${key}` };
        const control = await answerOf(await fetch(`${base}/_test${path}`, { method, headers }));
        const unknown = await answerOf(await fetch(`${base}/_tset${path}`, { method, headers }));
        expect(control.status).toBe(404);
        expect(control).toEqual({ ...unknown, body: unknown.body.replace("/_tset", "/_test") });
      }
    }
  }

  it("answers 404 as for any unknown path with testControl: false", async () => {
    const server = await startServer({
      database: ":memory:",
      inboxPort: 0,
      forumPort: 0,
      logger: false,
      testControl: false,
    });
    try {
      await expectUnknown(server);
    } finally {
      await server.close();
    }
  });

  it("is off in a production start-up: no development keys, on the run's database (PostgreSQL in its run)", async () => {
    const server = await startServer({
      database: await newTestDatabase(),
      inboxPort: 0,
      forumPort: 0,
      logger: false,
      devKeys: false,
    });
    try {
      await expectUnknown(server);
    } finally {
      await server.close();
    }
  });

  it("says so in the start-up log line", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = {
      info: (msg: string, fields?: Record<string, unknown>) => lines.push({ msg, ...fields }),
      warn: () => {},
      error: () => {},
    };
    const off = await startServer({ database: ":memory:", inboxPort: 0, forumPort: 0, logger, devKeys: false });
    await off.close();
    const on = await startServer({ database: ":memory:", inboxPort: 0, forumPort: 0, logger });
    await on.close();
    expect(lines.filter((line) => line.msg === "server started").map((line) => line.test_control)).toEqual([
      "off",
      "on",
    ]);
  });
});

describe("the test-control option", () => {
  const env = {};
  it("is on by default only with the development keys", () => {
    expect(resolveOptions({}, env).testControl).toEqual({ key: "pigeonhole-test-control-dev" });
    expect(resolveOptions({ devKeys: false }, env).testControl).toBeNull();
    expect(resolveOptions({ testControl: false }, env).testControl).toBeNull();
  });

  it("takes its key from the option, else PIGEONHOLE_TEST_CONTROL_KEY", () => {
    expect(resolveOptions({ testControl: { key: "mine" } }, env).testControl).toEqual({ key: "mine" });
    expect(resolveOptions({}, { PIGEONHOLE_TEST_CONTROL_KEY: "from-env" }).testControl).toEqual({ key: "from-env" });
  });

  it("needs a key of its own when asked for without the development keys", () => {
    expect(() => resolveOptions({ devKeys: false, testControl: {} }, env)).toThrow(InvalidOptionError);
    expect(resolveOptions({ devKeys: false, testControl: { key: "k" } }, env).testControl).toEqual({ key: "k" });
    expect(
      resolveOptions({ devKeys: false, testControl: {} }, { PIGEONHOLE_TEST_CONTROL_KEY: "k2" }).testControl,
    ).toEqual({ key: "k2" });
    // The variable alone never turns it on.
    expect(resolveOptions({ devKeys: false }, { PIGEONHOLE_TEST_CONTROL_KEY: "k2" }).testControl).toBeNull();
  });
});
