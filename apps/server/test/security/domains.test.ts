import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidOptionError, resolveOptions } from "../../src/options.ts";
import { newTestDatabase, testBackend } from "../support/test-database.ts";
import type { InboxClient, TestServer } from "../support/test-server.ts";
import { expectData, inboxClient, startTestServer } from "../support/test-server.ts";

// Inboxes live only in the server's own domains. A pod that could take an address of another domain would catch the
// mail other pods send there (interception) and send as that domain through the relay (spoofing).

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "domains-"));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

/** A database that outlives one server: a file on SQLite (memory would not), a database of its own on PostgreSQL. */
async function lastingDatabase(): Promise<string> {
  return testBackend() === "postgres" ? newTestDatabase() : join(workDir, `${Date.now()}-${Math.random()}.db`);
}

describe("creating an inbox in a domain the server does not host", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ domains: ["pigeonhole.test", "mail.example.net"] });
  });
  afterAll(() => t.server.close());

  it.each([
    ["cfo", "partner.example"],
    ["security", "paypal.com"],
    ["ops", "pigeonhole.test.evil.example"],
    ["support", "sub.pigeonhole.test"],
    ["support", "example.net"],
  ])("refuses %s@%s with 400 DOMAIN_NOT_HOSTED and creates nothing", async (username, domain) => {
    const pod = await t.newInboxTenant();
    const { error, response } = await pod.POST("/v0/inboxes", { body: { username, domain } });
    expect(response.status).toBe(400);
    expect(error?.error).toMatchObject({
      type: "validation_error",
      details: { field: "domain", code: "DOMAIN_NOT_HOSTED" },
    });
    expect(error?.error.message).toContain(domain);
    expect(expectData(await pod.GET("/v0/inboxes", {})).inboxes).toEqual([]);
  });

  it("takes every hosted domain, whatever its case", async () => {
    const pod = await t.newInboxTenant();
    const created = expectData(
      await pod.POST("/v0/inboxes", { body: { username: "ops", domain: "Mail.Example.NET" } }),
    );
    expect(created.inbox_id).toBe("ops@mail.example.net");
  });
});

describe("an inbox left outside the hosted domains", () => {
  /** A pod's key and its inbox at partner.example, made while the server still hosted that domain. */
  let database: string;
  let squatterKey: string;
  const squatted = "cfo@partner.example";

  beforeAll(async () => {
    database = await lastingDatabase();
    const before = await startTestServer({ database, domains: ["pigeonhole.test", "partner.example"] });
    try {
      squatterKey = await before.server.createApiKey("inbox");
      const squatter = inboxClient(before.server.inbox.url, squatterKey);
      expectData(await squatter.POST("/v0/inboxes", { body: { username: "cfo", domain: "partner.example" } }));
      expectData(await squatter.POST("/v0/inboxes", { body: { username: "desk" } }));
      expectData(
        await squatter.POST("/v0/inboxes/{inbox_id}/messages", {
          params: { path: { inbox_id: "desk@pigeonhole.test" } },
          body: { to: squatted, subject: "Before", text: "kept" },
        }),
      );
    } finally {
      await before.server.close();
    }
  });

  /** The server now hosting only pigeonhole.test, on the same database; the squatter's client and another pod's. */
  async function restarted(): Promise<{ t: TestServer; squatter: InboxClient }> {
    const t = await startTestServer({ database, domains: ["pigeonhole.test"] });
    return { t, squatter: inboxClient(t.server.inbox.url, squatterKey) };
  }

  it("can still be read, with the mail it already had", async () => {
    const { t, squatter } = await restarted();
    try {
      const inbox = expectData(
        await squatter.GET("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: squatted } } }),
      );
      expect(inbox.inbox_id).toBe(squatted);
      const { messages } = expectData(
        await squatter.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: squatted } } }),
      );
      expect(messages.map((message) => message.subject)).toEqual(["Before"]);
    } finally {
      await t.server.close();
    }
  });

  it("can no longer send or reply: 400 DOMAIN_NOT_HOSTED, and nothing is sent", async () => {
    const { t, squatter } = await restarted();
    try {
      const sent = await squatter.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: squatted } },
        body: { to: "desk@pigeonhole.test", subject: "Wire the money", text: "now" },
      });
      expect(sent.response.status).toBe(400);
      expect(sent.error?.error).toMatchObject({
        type: "validation_error",
        details: { field: "inbox_id", code: "DOMAIN_NOT_HOSTED" },
      });
      const { messages } = expectData(
        await squatter.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: squatted } } }),
      );
      const reply = await squatter.POST("/v0/inboxes/{inbox_id}/messages/{message_id}/reply", {
        params: { path: { inbox_id: squatted, message_id: messages[0]?.message_id ?? "" } },
        body: { text: "Re: now" },
      });
      expect(reply.response.status).toBe(400);
      expect(reply.error?.error.details).toEqual({ field: "inbox_id", code: "DOMAIN_NOT_HOSTED" });
      const desk = expectData(
        await squatter.GET("/v0/inboxes/{inbox_id}/messages", {
          params: { path: { inbox_id: "desk@pigeonhole.test" } },
        }),
      );
      expect(desk.messages.map((message) => message.subject)).toEqual(["Before"]);
    } finally {
      await t.server.close();
    }
  });

  it("does not intercept the mail another pod sends to its address", async () => {
    const { t, squatter } = await restarted();
    try {
      const victim = await t.newInboxTenant();
      const from = expectData(await victim.POST("/v0/inboxes", { body: { username: "payroll" } })).inbox_id;
      const sent = expectData(
        await victim.POST("/v0/inboxes/{inbox_id}/messages", {
          params: { path: { inbox_id: from } },
          body: { to: squatted, subject: "Q4 figures", text: "confidential" },
        }),
      );
      const { messages } = expectData(
        await squatter.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: squatted } } }),
      );
      expect(messages.map((message) => message.subject)).toEqual(["Before"]);
      // Mail for another domain goes where that domain's mail goes: out through the relay, or kept here without one.
      const copy = expectData(
        await victim.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
          params: { path: { inbox_id: from, message_id: sent.message_id } },
        }),
      );
      expect(copy.deliveries).toEqual([expect.objectContaining({ address: squatted, status: "captured" })]);
    } finally {
      await t.server.close();
    }
  });
});

describe("the hosted domains the operator gives", () => {
  it.each(["example.1", "i.i.tf.b", "-bad.example", "mail..example"])(
    "refuses %s, which no inbox address could use",
    (domain) => {
      expect(() => resolveOptions({ domains: [domain] })).toThrow(InvalidOptionError);
    },
  );

  it("takes domains the address rule takes", () => {
    expect(resolveOptions({ domains: ["Mail.Example.NET", "pigeonhole.test"] }).domains).toEqual([
      "mail.example.net",
      "pigeonhole.test",
    ]);
  });
});
