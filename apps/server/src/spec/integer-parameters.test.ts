import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../test/support/test-server.ts";
import { expectData, responseValidator, startTestServer } from "../../test/support/test-server.ts";
import type { ServiceName } from "./spec-bundle.ts";
import { documentOperations, loadSpecBundle } from "./spec-bundle.ts";

// Integer query parameters over real HTTP: every value is either exactly what was written, within the spec's
// documented range, or a 400 in the service's envelope; never a 500, and never a silently rounded number.

let t: TestServer;
let postId: string;
beforeAll(async () => {
  t = await startTestServer();
  postId = expectData(await t.forum.POST("/api/v1/posts", { body: { title: "Numbers", content: "Offsets." } })).post.id;
});
afterAll(() => t.server.close());

const MAX_SAFE = String(Number.MAX_SAFE_INTEGER);

/** Values that are no integer of the documented range, or not written in decimal digits. */
const REFUSED = [
  "9223372036854775808", // 2^63
  "9223372036854775807", // 2^63 - 1
  "9007199254740993", // 2^53 + 1, which a double rounds to 2^53
  "9007199254740992", // 2^53
  "9007199254740991.4", // rounds to 2^53 - 1
  "1e300",
  "1e3",
  "1E2",
  "2.0",
  "2.5",
  "0x10",
  " 5",
  "+5",
  "-1",
  "",
  "Infinity",
  "NaN",
  "1".repeat(400),
];

async function get(service: ServiceName, specPath: string, path: string) {
  const base = service === "inbox" ? t.server.inbox : t.server.forum;
  const response = await fetch(`${base.url}${path}`, { headers: { Authorization: `Bearer ${base.apiKey}` } });
  const body = (await response.json()) as Record<string, unknown>;
  const violations = responseValidator(service)({
    method: "GET",
    specPath,
    status: response.status,
    headers: response.headers,
    body,
  });
  expect(violations).toEqual([]);
  return { status: response.status, body };
}

describe("forum offset and limit", () => {
  const lists = [
    ["/api/v1/posts", () => "/api/v1/posts"],
    ["/api/v1/posts/{post_id}/comments", () => `/api/v1/posts/${postId}/comments`],
  ] as const;

  for (const [specPath, path] of lists) {
    it(`refuses out-of-range and non-decimal offsets and limits on ${specPath} with a 400`, async () => {
      for (const name of ["offset", "limit"]) {
        for (const value of REFUSED) {
          const { status, body } = await get("forum", specPath, `${path()}?${name}=${encodeURIComponent(value)}`);
          expect(status, `${name}=${value}`).toBe(400);
          expect(body, `${name}=${value}`).toMatchObject({ success: false, code: "VALIDATION_ERROR" });
          expect(String(body.error)).toMatch(new RegExp(`^${name}: `));
        }
      }
    });

    it(`takes the largest documented offset exactly on ${specPath}`, async () => {
      const { status, body } = await get("forum", specPath, `${path()}?offset=${MAX_SAFE}&limit=1`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ count: 0, has_more: false, next_offset: Number.MAX_SAFE_INTEGER });
      const padded = await get("forum", specPath, `${path()}?offset=0000&limit=1`);
      expect(padded.status).toBe(200);
      expect(padded.body).toMatchObject({ next_offset: specPath.endsWith("comments") ? 0 : 1 });
    });
  }
});

describe("inbox limit", () => {
  it("refuses out-of-range and non-decimal limits with a 400 on every list", async () => {
    const inbox = expectData(await t.inbox.POST("/v0/inboxes", {})).inbox_id;
    const lists = [
      ["/v0/inboxes", "/v0/inboxes"],
      ["/v0/webhooks", "/v0/webhooks"],
      ["/v0/inboxes/{inbox_id}/messages", `/v0/inboxes/${encodeURIComponent(inbox)}/messages`],
      ["/v0/inboxes/{inbox_id}/threads", `/v0/inboxes/${encodeURIComponent(inbox)}/threads`],
    ];
    for (const [specPath, path] of lists) {
      for (const value of REFUSED) {
        const { status, body } = await get("inbox", String(specPath), `${path}?limit=${encodeURIComponent(value)}`);
        expect(status, `${specPath} limit=${value}`).toBe(400);
        expect(body.error, `${specPath} limit=${value}`).toMatchObject({
          type: "validation_error",
          details: { field: "limit" },
        });
      }
    }
  });
});

describe("the specs", () => {
  it("give every integer parameter of both APIs a maximum that a double holds exactly", () => {
    let checked = 0;
    for (const service of ["inbox", "forum"] as const) {
      for (const { path, method, parameters } of documentOperations(loadSpecBundle(service))) {
        for (const parameter of parameters.filter((p) => p.schema.type === "integer")) {
          const where = `${service} ${method} ${path} ${parameter.name}`;
          expect(typeof parameter.schema.maximum, where).toBe("number");
          expect(Number.isSafeInteger(parameter.schema.maximum), where).toBe(true);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(7);
  });
});
