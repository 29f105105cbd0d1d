// Inboxes live only in the server's hosted domains (`DECISIONS.md`, "E-mail transport"): Create Inbox refuses any
// other, an inbox left outside them reads but never sends, and List Domains / Get Domain name them. Checked against
// the bundle (`dist/openapi.json`; run `pnpm bundle` first).

import { type JsonObject, loadBundle } from "@pigeonhole/spec-testing/bundle";
import { describe, expect, it } from "vitest";

const { arr, obj, spec, str } = loadBundle(new URL("../dist/openapi.json", import.meta.url));

const schema = (name: string): JsonObject => obj(spec, "components", "schemas", name);
const operation = (path: string, method: string): JsonObject => obj(spec, "paths", path, method);
const badRequestExamples = (op: JsonObject): JsonObject[] =>
  Object.values(obj(op, "responses", "400", "content", "application/json", "examples")).map((example) =>
    obj(example, "value", "error", "details"),
  );

const INBOXES = "/v0/inboxes";
const MESSAGES = "/v0/inboxes/{inbox_id}/messages";
const REPLY = "/v0/inboxes/{inbox_id}/messages/{message_id}/reply";

describe("DOMAIN_NOT_HOSTED", () => {
  it("is Create Inbox's answer for a domain the server does not host, on the field domain, with an example", () => {
    const op = operation(INBOXES, "post");
    expect(str(op, "description")).toContain("DOMAIN_NOT_HOSTED");
    expect(badRequestExamples(op)).toContainEqual({ field: "domain", code: "DOMAIN_NOT_HOSTED" });
    expect(str(schema("CreateInboxRequest"), "properties", "domain", "description")).toContain("DOMAIN_NOT_HOSTED");
  });

  it("is Send Message's and Reply To Message's answer from an inbox outside the hosted domains", () => {
    for (const op of [operation(MESSAGES, "post"), operation(REPLY, "post")]) {
      expect(str(op, "description")).toContain("DOMAIN_NOT_HOSTED");
      expect(badRequestExamples(op)).toContainEqual({ field: "inbox_id", code: "DOMAIN_NOT_HOSTED" });
    }
  });

  it("is a documented code, explained once in the overview", () => {
    expect(arr(schema("ErrorDetails"), "properties", "code", "examples")).toContain("DOMAIN_NOT_HOSTED");
    expect(str(spec, "info", "description")).toContain("| 400 `validation_error` | `DOMAIN_NOT_HOSTED` |");
  });
});

describe("List Domains and Get Domain", () => {
  it("answer a list like every other list, and one domain by its id", () => {
    expect(str(operation("/v0/domains", "get"), "operationId")).toBe("listDomains");
    expect(str(operation("/v0/domains/{domain_id}", "get"), "operationId")).toBe("getDomain");
    expect(arr(schema("ListDomainsResponse"), "required")).toEqual(["count", "limit", "next_page_token", "domains"]);
  });

  it("carry AgentMail's domain fields the server can know: id, name, status and the records to publish", () => {
    expect(arr(schema("Domain"), "required")).toEqual(["domain_id", "domain", "status", "records"]);
    expect(arr(schema("DomainRecord"), "required")).toEqual(["type", "name", "value"]);
  });
});
