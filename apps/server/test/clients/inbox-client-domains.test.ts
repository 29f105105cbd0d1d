import type { Domain, InboxClient, ListDomainsResponse } from "@pigeonhole/inbox";
import { BadRequestError, createInboxClient, NotFoundError } from "@pigeonhole/inbox";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type { TestServer } from "../support/test-server.ts";
import { startTestServer } from "../support/test-server.ts";

// The Inbox API client (`@pigeonhole/inbox`, through its public exports only) and the server's hosted domains, over
// HTTP on 127.0.0.1.

const DOMAINS = ["mail.example.com", "example.org"];

let t: TestServer;
let inbox: InboxClient;
beforeAll(async () => {
  t = await startTestServer({ domains: DOMAINS });
  inbox = createInboxClient({ baseUrl: t.server.inbox.url, apiKey: await t.server.createApiKey("inbox") });
});
afterAll(() => t.server.close());

describe("hosted domains", () => {
  it("lists them, pages through them and gets one, in both call styles", async () => {
    const page = await inbox.get("/v0/domains");
    expectTypeOf(page).toEqualTypeOf<ListDomainsResponse>();
    expect(page.domains.map((domain) => domain.domain)).toEqual(DOMAINS);
    const walked: Domain[] = await inbox.paginate("/v0/domains", { params: { query: { limit: 1 } } }).toArray(10);
    expect(walked.map((domain) => domain.domain_id)).toEqual(DOMAINS);
    const one = await inbox.get("/v0/domains/{domain_id}", { params: { path: { domain_id: "example.org" } } });
    expect(one).toMatchObject({ domain_id: "example.org", domain: "example.org", status: "VERIFIED" });
    expect(one.records.map((record) => record.type)).toEqual(["MX", "TXT", "TXT"]);
    const { data, response } = await inbox.GET("/v0/domains/{domain_id}", {
      params: { path: { domain_id: "mail.example.com" } },
    });
    expect(response.status).toBe(200);
    expect(data?.domain).toBe("mail.example.com");
  });

  it("throws NotFoundError for a domain the server does not host", async () => {
    const error = await inbox
      .get("/v0/domains/{domain_id}", { params: { path: { domain_id: "partner.example" } } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      code: "NOT_FOUND",
      body: { error: { type: "not_found_error", details: { field: "domain_id", code: "NOT_FOUND" } } },
    });
  });

  it("throws BadRequestError with DOMAIN_NOT_HOSTED for an inbox in another domain", async () => {
    const error = await inbox
      .post("/v0/inboxes", { body: { username: "cfo", domain: "partner.example" } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({
      status: 400,
      code: "DOMAIN_NOT_HOSTED",
      body: { error: { type: "validation_error", details: { field: "domain", code: "DOMAIN_NOT_HOSTED" } } },
    });
    const created = await inbox.post("/v0/inboxes", { body: { username: "cfo", domain: "example.org" } });
    expect(created.inbox_id).toBe("cfo@example.org");
  });
});
