import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../support/test-server.ts";
import { expectData, startTestServer } from "../support/test-server.ts";

// A page token names a row's place among every pod's rows (`seq` counts them all). Readable, two of a pod's own tokens
// would tell it how much the other pods stored between its pages; so the cursor travels encrypted, not only signed.

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.server.close());

const decoded = (token: string) => Buffer.from(token, "base64url").toString("latin1");

describe("page tokens", () => {
  it("carry no readable cursor: neither the row's timestamp nor its place among all pods' rows", async () => {
    const pod = await t.newInboxTenant();
    for (const username of ["first", "second", "third"]) {
      expectData(await pod.POST("/v0/inboxes", { body: { username: `${username}-${Date.now()}` } }));
    }
    const page = expectData(await pod.GET("/v0/inboxes", { params: { query: { limit: 1 } } }));
    const token = page.next_page_token;
    expect(token).toEqual(expect.any(String));
    // A readable cursor would hold the row's timestamp (the old tokens were its JSON, base64url-encoded, and signed).
    const createdAt = page.inboxes[0]?.created_at ?? "";
    expect(createdAt).not.toBe("");
    expect(decoded(token ?? "")).not.toContain(createdAt.slice(0, 19));

    // Still a working, stable token: the same page answers the same token, and it leads to the next item.
    const again = expectData(await pod.GET("/v0/inboxes", { params: { query: { limit: 1 } } }));
    expect(again.next_page_token).toBe(token);
    const next = expectData(await pod.GET("/v0/inboxes", { params: { query: { limit: 1, page_token: token ?? "" } } }));
    expect(next.inboxes[0]?.inbox_id).not.toBe(page.inboxes[0]?.inbox_id);
  });

  it("refuse a token changed by one character, and another pod's token, with 400 INVALID_PAGE_TOKEN", async () => {
    const owner = await t.newInboxTenant();
    const stranger = await t.newInboxTenant();
    for (const client of [owner, stranger]) {
      for (let i = 0; i < 2; i++) {
        expectData(await client.POST("/v0/inboxes", {}));
      }
    }
    const token = expectData(await owner.GET("/v0/inboxes", { params: { query: { limit: 1 } } })).next_page_token ?? "";
    const last = token.at(-1) === "A" ? "B" : "A";
    for (const [client, pageToken] of [
      [owner, `${token.slice(0, -1)}${last}`],
      [stranger, token],
    ] as const) {
      const { error, response } = await client.GET("/v0/inboxes", {
        params: { query: { limit: 1, page_token: pageToken } },
      });
      expect(response.status).toBe(400);
      expect(error?.error.details).toEqual({ field: "page_token", code: "INVALID_PAGE_TOKEN" });
    }
  });
});
