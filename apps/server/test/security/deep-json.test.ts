import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_NESTING } from "../../src/http/json-nesting.ts";
import type { TestServer } from "../support/test-server.ts";
import { startTestServer } from "../support/test-server.ts";

// A few kilobytes of brackets nest a body thousands of levels deep. Every walk over a body (validation, the check for
// NUL characters, storing it as JSON) then ran as deep: thousands of levels overflowed the call stack (a 500) and a
// couple of thousand cost a third of a second of CPU, from one small request. Bodies are refused at the door now.

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.server.close());

const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

const send = (url: string, apiKey: string, method: string, body: string) =>
  fetch(url, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body,
  });

const forumMe = (body: string) => send(`${t.server.forum.url}/api/v1/agents/me`, t.server.forum.apiKey, "PATCH", body);
const inboxCreate = (body: string) => send(`${t.server.inbox.url}/v0/inboxes`, t.server.inbox.apiKey, "POST", body);

describe("deeply nested JSON bodies", () => {
  it("are a 400 INVALID_JSON in the forum's envelope, not a 500, however deep", async () => {
    for (const levels of [MAX_JSON_NESTING, 2_000, 5_000, 200_000]) {
      const response = await forumMe(`{"metadata":{"a":${nested(levels)}}}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        success: false,
        error: `The request body nests arrays and objects deeper than ${MAX_JSON_NESTING} levels.`,
        code: "INVALID_JSON",
        hint: expect.any(String),
      });
    }
  });

  it("are a 400 INVALID_JSON in the inbox's envelope, not a 500", async () => {
    const response = await inboxCreate(`{"metadata":{"a":${nested(5_000)}}}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { type: "validation_error", details: { code: "INVALID_JSON" } },
    });
  });

  it("count only brackets outside strings, and let bodies as deep as the limit through to validation", async () => {
    const inString = await forumMe(JSON.stringify({ description: nested(5_000).slice(0, 500) }));
    expect(inString.status).toBe(200);
    // Nested exactly to the limit: past the door, refused by the schema (metadata is flat) as any wrong type is.
    const atLimit = await forumMe(`{"metadata":{"a":${nested(MAX_JSON_NESTING - 2)}}}`);
    expect(atLimit.status).toBe(400);
    expect((await atLimit.json()).code).toBe("VALIDATION_ERROR");
  });
});

describe("forum agent metadata", () => {
  it("is flat: a nested object or array is a 400 VALIDATION_ERROR; strings, numbers and booleans are kept", async () => {
    for (const metadata of [{ a: { b: 1 } }, { a: [1] }, { a: null }]) {
      const response = await forumMe(JSON.stringify({ metadata }));
      expect(response.status).toBe(400);
      expect((await response.json()).code).toBe("VALIDATION_ERROR");
    }
    const kept = await forumMe(JSON.stringify({ metadata: { model: "example-7b", size: 7, open: true } }));
    expect(kept.status).toBe(200);
    expect((await kept.json()).agent.metadata).toEqual({ model: "example-7b", size: 7, open: true });
  });

  it("holds at most 20 keys", async () => {
    const metadata = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i]));
    const response = await forumMe(JSON.stringify({ metadata }));
    expect(response.status).toBe(400);
    expect((await response.json()).code).toBe("VALIDATION_ERROR");
  });
});
