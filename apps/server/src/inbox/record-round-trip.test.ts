import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../test/support/test-server.ts";

// What a record answers, a request takes back: null where a record says "none", so that a client may send a record's
// fields back as they came (Update Webhook replaces a webhook as a whole).

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.server.close());

describe("null for none", () => {
  it("Create Inbox takes client_id and display_name null, as absent", async () => {
    const created = expectData(
      await t.inbox.POST("/v0/inboxes", { body: { username: "nulls", client_id: null, display_name: null } }),
    );
    expect(created).toMatchObject({ inbox_id: "nulls@pigeonhole.test", client_id: null, display_name: null });
  });

  it("Create Webhook takes client_id, event_types and inbox_ids null, as absent", async () => {
    const created = expectData(
      await t.inbox.POST("/v0/webhooks", {
        body: { url: "http://127.0.0.1:9/hook", client_id: null, event_types: null, inbox_ids: null },
      }),
    );
    expect(created).toMatchObject({ client_id: null, event_types: null, inbox_ids: null, enabled: true });
  });

  it("Update Webhook takes a webhook's own settings back unchanged", async () => {
    const created = expectData(await t.inbox.POST("/v0/webhooks", { body: { url: "http://127.0.0.1:9/round-trip" } }));
    const { url, client_id, enabled, event_types, inbox_ids } = created;
    const replaced = expectData(
      await t.inbox.PUT("/v0/webhooks/{webhook_id}", {
        params: { path: { webhook_id: created.webhook_id } },
        body: { url, client_id, enabled, event_types, inbox_ids },
      }),
    );
    expect({ ...replaced, updated_at: created.updated_at }).toEqual(created);
  });

  it("still refuses an empty client_id and a null where a value is required", async () => {
    const empty = await t.inbox.POST("/v0/inboxes", { body: { client_id: "" } });
    expect(empty.response.status).toBe(400);
    expect(empty.error?.error.details).toEqual({ field: "client_id", code: "INVALID_VALUE" });
    const noUrl = await t.inbox.POST("/v0/webhooks", { body: { url: null } as never });
    expect(noUrl.response.status).toBe(400);
    expect(noUrl.error?.error.details.field).toBe("url");
  });
});

describe("webhook inbox_ids", () => {
  it("are answered in lowercase, as the spec says they are stored", async () => {
    const created = expectData(
      await t.inbox.POST("/v0/webhooks", {
        body: { url: "http://127.0.0.1:9/case", inbox_ids: ["Support@Pigeonhole.Test"] },
      }),
    );
    expect(created.inbox_ids).toEqual(["support@pigeonhole.test"]);
  });

  it.each([
    ["x@i.i.tf.b"],
    ["ada@example.123"],
    ["not-an-address"],
    ["ada@localhost"],
    ["Ada <ada@example.com>"],
    ["ada@[127.0.0.1]"],
    [`${"a".repeat(250)}@b.co`],
  ])("refuses %s with INVALID_EMAIL, as every address field does", async (address) => {
    const { error, response } = await t.inbox.POST("/v0/webhooks", {
      body: { url: "http://127.0.0.1:9/refused", inbox_ids: [address] },
    });
    expect(response.status).toBe(400);
    expect(error?.error.details).toEqual({
      field: "inbox_ids.0",
      code: expect.stringMatching(/^(INVALID_EMAIL|TOO_LONG)$/),
    });
  });
});

describe("the address rule in a send", () => {
  it.each([
    ["to", "x@i.i.tf.b"],
    ["cc", "ada@example.123"],
    ["reply_to", "help@example.c"],
  ] as const)("refuses %s %s with INVALID_EMAIL, as every address field does", async (field, address) => {
    const from = expectData(await t.inbox.POST("/v0/inboxes", {})).inbox_id;
    const { error, response } = await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: from } },
      body: { to: "ada@example.com", [field]: address },
    });
    expect(response.status).toBe(400);
    expect(error?.error.details).toEqual({ field, code: "INVALID_EMAIL" });
  });
});
