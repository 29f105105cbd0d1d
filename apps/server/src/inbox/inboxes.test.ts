import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../test/support/test-server.ts";

const label = (char: string, length: number) => char.repeat(length);
/** A domain of 253 characters, the longest, and one that leaves room for a 64-character username in 254. */
const LONGEST_DOMAIN = [label("a", 63), label("b", 63), label("c", 63), label("d", 61)].join(".");
const ROOMY_DOMAIN = [label("a", 63), label("b", 63), label("c", 61)].join(".");

let t: TestServer;
beforeAll(async () => {
  // Inboxes live in hosted domains only: the long ones are hosted so that the address rule is what refuses them.
  t = await startTestServer({ domains: ["pigeonhole.test", LONGEST_DOMAIN, ROOMY_DOMAIN] });
});
afterAll(() => t.server.close());

describe("inboxes", () => {
  it("creates an inbox with the given address and answers it on get", async () => {
    const created = expectData(
      await t.inbox.POST("/v0/inboxes", {
        body: { username: "support", domain: "Pigeonhole.Test", display_name: "Support", client_id: "support-v1" },
      }),
    );
    expect(created).toMatchObject({
      inbox_id: "support@pigeonhole.test",
      display_name: "Support",
      client_id: "support-v1",
    });
    expect(created.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const fetched = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: created.inbox_id } } }),
    );
    expect(fetched).toEqual(created);
  });

  it("generates a username on the default domain when the body is omitted", async () => {
    const created = expectData(await t.inbox.POST("/v0/inboxes", {}));
    expect(created.inbox_id).toMatch(/^inbox-[a-z0-9]{10}@pigeonhole\.test$/);
    expect(created.display_name).toBeNull();
    expect(created.client_id).toBeNull();
  });

  it("answers the first inbox, unchanged, for a repeated client_id", async () => {
    const first = expectData(
      await t.inbox.POST("/v0/inboxes", { body: { client_id: "repeat-me", display_name: "A" } }),
    );
    const again = expectData(
      await t.inbox.POST("/v0/inboxes", { body: { client_id: "repeat-me", display_name: "B", username: "other" } }),
    );
    expect(again).toEqual(first);
    const other = await t.inbox.GET("/v0/inboxes/{inbox_id}", {
      params: { path: { inbox_id: "other@pigeonhole.test" } },
    });
    expect(other.response.status).toBe(404);
  });

  it("answers 409 ADDRESS_TAKEN for an address in use, even by another tenant", async () => {
    expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "taken" } }));
    const other = await t.newInboxTenant();
    const { error, response } = await other.POST("/v0/inboxes", { body: { username: "taken" } });
    expect(response.status).toBe(409);
    expect(error?.error).toMatchObject({
      type: "conflict_error",
      details: { code: "ADDRESS_TAKEN", field: "username" },
    });
  });

  it("answers 404 for another tenant's inbox, exactly as for a missing one", async () => {
    const mine = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "private-box" } }));
    const other = await t.newInboxTenant();
    const foreign = await other.GET("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: mine.inbox_id } } });
    const missing = await other.GET("/v0/inboxes/{inbox_id}", {
      params: { path: { inbox_id: "nobody@pigeonhole.test" } },
    });
    expect(foreign.response.status).toBe(404);
    expect(foreign.error?.error.details).toEqual({ field: "inbox_id", code: "NOT_FOUND" });
    expect(missing.error?.error.details).toEqual(foreign.error?.error.details);
    const list = expectData(await other.GET("/v0/inboxes", {}));
    expect(list.inboxes).toEqual([]);
  });

  it("refuses invalid usernames and unknown fields with the field and code", async () => {
    const bad = await t.inbox.POST("/v0/inboxes", { body: { username: "Upper Case" } });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.error.details).toEqual({ field: "username", code: "INVALID_VALUE" });
    const unknown = await t.inbox.POST("/v0/inboxes", { body: { username: "ok", colour: "blue" } as never });
    expect(unknown.error?.error.details).toEqual({ field: "colour", code: "INVALID_VALUE" });
    const long = await t.inbox.POST("/v0/inboxes", { body: { display_name: "x".repeat(129) } });
    expect(long.error?.error.details).toEqual({ field: "display_name", code: "TOO_LONG" });
    const wrongType = await t.inbox.POST("/v0/inboxes", { body: { display_name: 42 } as never });
    expect(wrongType.error?.error.details).toEqual({ field: "display_name", code: "INVALID_TYPE" });
  });

  it("says in words which usernames and client ids it accepts, not with the spec's expression", async () => {
    const username = await t.inbox.POST("/v0/inboxes", { body: { username: "Ada Lovelace" } });
    expect(username.error?.error.message).toBe(
      "username: 'Ada Lovelace' is not valid: use 1 to 64 of a-z, 0-9, '.', '_' and '-', starting with a letter or " +
        "digit, with no '.' at the end or next to another '.'.",
    );
    const clientId = await t.inbox.POST("/v0/inboxes", { body: { client_id: "ada@work" } });
    expect(clientId.error?.error.message).toBe(
      "client_id: 'ada@work' is not valid: use 1 to 128 of A-Z, a-z, 0-9, '.', '_', '~' and '-'.",
    );
  });
});

describe("inbox addresses", () => {
  it("refuses usernames and domains whose address the rest of the API would refuse, and creates nothing", async () => {
    const tenant = await t.newInboxTenant();
    const longDomain = LONGEST_DOMAIN;
    for (const [body, details] of [
      [
        { username: "trail.", domain: "net" },
        { field: "username", code: "INVALID_VALUE" },
      ],
      [{ username: "trail." }, { field: "username", code: "INVALID_VALUE" }],
      [{ username: "a..b" }, { field: "username", code: "INVALID_VALUE" }],
      [
        { username: "a.", domain: "example.com" },
        { field: "username", code: "INVALID_VALUE" },
      ],
      [{ domain: "net" }, { field: "domain", code: "INVALID_VALUE" }],
      [
        { username: "ok", domain: "localhost" },
        { field: "domain", code: "INVALID_VALUE" },
      ],
      [{ domain: "example.com." }, { field: "domain", code: "INVALID_VALUE" }],
      [{ domain: "-bad.example.com" }, { field: "domain", code: "INVALID_VALUE" }],
      [{ domain: `${label("x", 64)}.example.com` }, { field: "domain", code: "INVALID_VALUE" }],
      // Each part is valid on its own; the whole address is over 254 characters.
      [
        { username: "u", domain: longDomain },
        { field: "username", code: "INVALID_EMAIL" },
      ],
      [{ domain: longDomain }, { field: "domain", code: "INVALID_EMAIL" }],
    ] as const) {
      const { error, response } = await tenant.POST("/v0/inboxes", { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error?.error.type).toBe("validation_error");
      expect(error?.error.details, JSON.stringify(body)).toEqual(details);
    }
    expect(expectData(await tenant.GET("/v0/inboxes", {})).inboxes).toEqual([]);
  });

  it("creates every address the rule allows, up to 254 characters, and uses it everywhere", async () => {
    const tenant = await t.newInboxTenant();
    const domain = ROOMY_DOMAIN;
    const usernames = ["first.last", "a_b-c.d-e", "0", label("u", 64)];
    const created: string[] = [];
    for (const username of usernames) {
      const inbox = expectData(await tenant.POST("/v0/inboxes", { body: { username, domain: domain.toUpperCase() } }));
      expect(inbox.inbox_id).toBe(`${username}@${domain}`);
      created.push(inbox.inbox_id);
    }
    expect(created.at(-1)).toHaveLength(254);
    const listed = expectData(await tenant.GET("/v0/inboxes", {}));
    expect(listed.inboxes.map((inbox) => inbox.inbox_id).sort()).toEqual([...created].sort());
    for (const inbox_id of created) {
      const path = { params: { path: { inbox_id } } };
      expect(expectData(await tenant.GET("/v0/inboxes/{inbox_id}", path)).inbox_id).toBe(inbox_id);
      expectData(
        await tenant.POST("/v0/inboxes/{inbox_id}/messages", { ...path, body: { to: created, subject: "hi" } }),
      );
      expect(expectData(await tenant.GET("/v0/inboxes/{inbox_id}/messages", path)).count).toBeGreaterThan(0);
    }
    expectData(await tenant.POST("/v0/webhooks", { body: { url: "https://hooks.example.com/a", inbox_ids: created } }));
  });

  it("holds recipients, path ids and webhook inbox_ids to the same rule", async () => {
    const tenant = await t.newInboxTenant();
    const from = expectData(await tenant.POST("/v0/inboxes", { body: { username: "rule" } })).inbox_id;
    const path = { params: { path: { inbox_id: from } } };
    for (const to of [
      "trail.@example.com",
      "a..b@example.com",
      "ada@net",
      "ada@example.com.",
      "Ada <ada@example.com>",
    ]) {
      const { error, response } = await tenant.POST("/v0/inboxes/{inbox_id}/messages", { ...path, body: { to } });
      expect(response.status, to).toBe(400);
      expect(error?.error.details, to).toEqual({ field: "to", code: "INVALID_EMAIL" });
    }
    expectData(
      await tenant.POST("/v0/inboxes/{inbox_id}/messages", {
        ...path,
        body: { to: ["o'brien+tag@example.com", "Grace.Hopper@Sub.Example.COM"] },
      }),
    );
    for (const inbox_id of ["trail.@net", "a..b@pigeonhole.test", "ada@net"]) {
      const { error, response } = await tenant.GET("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id } } });
      expect(response.status, inbox_id).toBe(400);
      expect(error?.error.details, inbox_id).toEqual({ field: "inbox_id", code: "INVALID_EMAIL" });
    }
    const hook = await tenant.POST("/v0/webhooks", { body: { url: "https://h.example.com", inbox_ids: ["a@net"] } });
    expect(hook.error?.error.details).toEqual({ field: "inbox_ids.0", code: "INVALID_EMAIL" });
  });
});

describe("inbox list paging", () => {
  it("pages newest first and never repeats or skips while new inboxes arrive", async () => {
    const tenant = await t.newInboxTenant();
    const created: string[] = [];
    for (let i = 0; i < 7; i++) {
      created.push(expectData(await tenant.POST("/v0/inboxes", { body: { username: `page-${i}` } })).inbox_id);
    }
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = expectData(
        await tenant.GET("/v0/inboxes", { params: { query: { limit: 3, ...(token ? { page_token: token } : {}) } } }),
      );
      expect(page.limit).toBe(3);
      expect(page.count).toBe(page.inboxes.length);
      seen.push(...page.inboxes.map((inbox) => inbox.inbox_id));
      token = page.next_page_token ?? undefined;
      // New inboxes arrive between pages; they belong to a new first page, not to this walk.
      expectData(await tenant.POST("/v0/inboxes", { body: { username: `late-${pages}` } }));
      pages += 1;
    } while (token);
    expect(seen).toEqual([...created].reverse());
    expect(pages).toBe(3);
  });

  it("defaults the page size to 20 and refuses sizes outside 1 to 100", async () => {
    const page = expectData(await t.inbox.GET("/v0/inboxes", {}));
    expect(page.limit).toBe(20);
    for (const [limit, code] of [
      [101, "INVALID_VALUE"],
      [0, "INVALID_VALUE"],
      ["abc", "INVALID_TYPE"],
      [2.5, "INVALID_TYPE"],
    ] as const) {
      const { error, response } = await t.inbox.GET("/v0/inboxes", { params: { query: { limit: limit as number } } });
      expect(response.status).toBe(400);
      expect(error?.error.details).toEqual({ field: "limit", code });
    }
  });

  it("refuses a page token it did not issue, or one issued for another list", async () => {
    const forged = await t.inbox.GET("/v0/inboxes", { params: { query: { page_token: "eyJjIjoiMjAyNiJ9" } } });
    expect(forged.response.status).toBe(400);
    expect(forged.error?.error.details).toEqual({ field: "page_token", code: "INVALID_PAGE_TOKEN" });

    const tenant = await t.newInboxTenant();
    for (let i = 0; i < 3; i++) {
      expectData(await tenant.POST("/v0/inboxes", { body: { username: `token-${i}` } }));
    }
    const page = expectData(await tenant.GET("/v0/inboxes", { params: { query: { limit: 1 } } }));
    const token = page.next_page_token;
    expect(token).toEqual(expect.any(String));
    const elsewhere = await t.inbox.GET("/v0/inboxes", { params: { query: { page_token: token ?? "" } } });
    expect(elsewhere.error?.error.details.code).toBe("INVALID_PAGE_TOKEN");
  });
});
