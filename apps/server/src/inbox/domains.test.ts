import { createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../test/support/test-server.ts";

// List Domains and Get Domain: the domains the server hosts, as its options name them, the same for every pod.

/** What every hosted domain publishes: mail to and from its own host, and DMARC reporting only. */
const recordsWithoutDkim = (domain: string) => [
  { type: "MX", name: domain, value: domain, priority: 10 },
  { type: "TXT", name: domain, value: "v=spf1 mx ~all" },
  { type: "TXT", name: `_dmarc.${domain}`, value: "v=DMARC1; p=none" },
];

describe("a server with its default domain", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.server.close());

  it("lists pigeonhole.test, with the DNS records to publish", async () => {
    expect(expectData(await t.inbox.GET("/v0/domains", {}))).toEqual({
      count: 1,
      limit: 20,
      next_page_token: null,
      domains: [
        {
          domain_id: "pigeonhole.test",
          domain: "pigeonhole.test",
          status: "VERIFIED",
          records: recordsWithoutDkim("pigeonhole.test"),
        },
      ],
    });
  });

  it("answers the same domains to every pod", async () => {
    const other = await t.newInboxTenant();
    expect(expectData(await other.GET("/v0/domains", {}))).toEqual(expectData(await t.inbox.GET("/v0/domains", {})));
  });
});

describe("a server with several domains", () => {
  const domains = ["mail.example.com", "example.org", "agents.example.net"];
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ domains });
  });
  afterAll(() => t.server.close());

  it("lists them in the order it was given, the default first, page by page", async () => {
    const first = expectData(await t.inbox.GET("/v0/domains", { params: { query: { limit: 2 } } }));
    expect(first.domains.map((domain) => domain.domain)).toEqual(domains.slice(0, 2));
    expect(first.next_page_token).not.toBeNull();
    const second = expectData(
      await t.inbox.GET("/v0/domains", { params: { query: { limit: 2, page_token: first.next_page_token ?? "" } } }),
    );
    expect(second).toMatchObject({ count: 1, next_page_token: null });
    expect(second.domains.map((domain) => domain.domain)).toEqual(domains.slice(2));
  });

  it("refuses a page token it did not issue, as every list does", async () => {
    const { error, response } = await t.inbox.GET("/v0/domains", { params: { query: { page_token: "bogus.token" } } });
    expect(response.status).toBe(400);
    expect(error?.error.details).toEqual({ field: "page_token", code: "INVALID_PAGE_TOKEN" });
  });

  it("gets one by its id, and answers 404 for a domain it does not host", async () => {
    const domain = expectData(
      await t.inbox.GET("/v0/domains/{domain_id}", { params: { path: { domain_id: "example.org" } } }),
    );
    expect(domain).toEqual({
      domain_id: "example.org",
      domain: "example.org",
      status: "VERIFIED",
      records: recordsWithoutDkim("example.org"),
    });
    for (const domain_id of ["partner.example", "sub.example.org"]) {
      const { error, response } = await t.inbox.GET("/v0/domains/{domain_id}", { params: { path: { domain_id } } });
      expect(response.status).toBe(404);
      expect(error?.error.details).toEqual({ field: "domain_id", code: "NOT_FOUND" });
    }
  });

  it("creates inboxes in the default domain unless told another hosted one", async () => {
    expect(expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "desk" } })).inbox_id).toBe(
      "desk@mail.example.com",
    );
    expect(
      expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "desk", domain: "agents.example.net" } }))
        .inbox_id,
    ).toBe("desk@agents.example.net");
  });
});

describe("a server that signs relayed mail with DKIM", () => {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const privatePem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      domains: ["pigeonhole.test", "mail.example.com"],
      smtpRelay: "smtp://127.0.0.1:9",
      dkim: { domain: "mail.example.com", selector: "pigeonhole", privateKey: privatePem },
    });
  });
  afterAll(() => t.server.close());

  it("lists the key's TXT record for the signing domain, whose key is the server's", async () => {
    const { domains } = expectData(await t.inbox.GET("/v0/domains", {}));
    expect(domains.find((domain) => domain.domain === "pigeonhole.test")?.records).toEqual(
      recordsWithoutDkim("pigeonhole.test"),
    );
    const records = domains.find((domain) => domain.domain === "mail.example.com")?.records ?? [];
    const [mx, spf, ...rest] = recordsWithoutDkim("mail.example.com");
    const dkim = {
      type: "TXT",
      name: "pigeonhole._domainkey.mail.example.com",
      value: expect.stringMatching(/^v=DKIM1; k=rsa; p=/),
    };
    expect(records).toEqual([mx, spf, dkim, ...rest]);
    // The record's key is the public half of the configured one: what it signs, the record's key verifies.
    const published = /; p=([A-Za-z0-9+/=]+)$/.exec(records[2]?.value ?? "")?.[1] ?? "";
    const publicKey = createPublicKey({ key: Buffer.from(published, "base64"), format: "der", type: "spki" });
    const data = Buffer.from("From: desk@mail.example.com");
    expect(verify("sha256", data, publicKey, sign("sha256", data, privateKey))).toBe(true);
  });
});
