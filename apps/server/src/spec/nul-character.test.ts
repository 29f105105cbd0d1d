import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../test/support/test-server.ts";
import { startTestServer } from "../../test/support/test-server.ts";

// PostgreSQL cannot store U+0000 in text; both databases refuse it at the door, with the same answer.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.server.close());

const inbox = (path: string, init: RequestInit = {}) =>
  fetch(`${server.server.inbox.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${server.server.inbox.apiKey}`, "content-type": "application/json" },
  });

describe("the NUL character", () => {
  it("in a path parameter is a 400 naming the parameter, not a server error", async () => {
    const response = await inbox("/v0/webhooks/a%00b");
    expect(response.status).toBe(400);
    expect((await response.json()).error.details).toEqual({ field: "webhook_id", code: "INVALID_VALUE" });
  });

  it("in a body field is a 400 naming the field, and nothing is stored", async () => {
    const response = await inbox("/v0/inboxes", {
      method: "POST",
      body: JSON.stringify({ display_name: "Null\u0000Byte", client_id: "nul-test" }),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.details).toEqual({ field: "display_name", code: "INVALID_VALUE" });
    const list = await (await inbox("/v0/inboxes")).json();
    expect(list.inboxes.filter((item: { client_id: string | null }) => item.client_id === "nul-test")).toEqual([]);
  });

  it("in an object key of the body is refused as well", async () => {
    const created = await (await inbox("/v0/inboxes", { method: "POST", body: "{}" })).json();
    const response = await inbox(`/v0/inboxes/${encodeURIComponent(created.inbox_id)}/messages`, {
      method: "POST",
      body: JSON.stringify({ to: ["a@example.com"], text: "hi", headers: { "X-A\u0000": "b" } }),
    });
    expect(response.status).toBe(400);
  });
});
