// Statements of the inbox seed (`seeds/inbox-messaging-service.md`) and of the inbox part of `DECISIONS.md`, each
// checked against the bundle (`dist/openapi.json`; run `pnpm bundle` first). The operations that extend the seed
// are checked in `additions.test.ts`; here, that they leave the seed's paths and operations in place.

import { isObject, type Json, type JsonObject, loadBundle, refOf } from "@pigeonhole/spec-testing/bundle";
import { describe, expect, it } from "vitest";
import { ADDED, ADDED_PATHS } from "./added-operations.js";

const { arr, at, obj, operationsOf, spec, str } = loadBundle(new URL("../dist/openapi.json", import.meta.url));

const schema = (name: string): JsonObject => obj(spec, "components", "schemas", name);
const property = (schemaName: string, name: string): JsonObject => obj(schema(schemaName), "properties", name);
const operation = (path: string, method: string): JsonObject => obj(spec, "paths", path, method);
const requestSchema = (op: JsonObject): JsonObject => obj(op, "requestBody", "content", "application/json", "schema");
const responseSchema = (op: JsonObject, status: string): JsonObject =>
  obj(op, "responses", status, "content", "application/json", "schema");
const requestRef = (op: JsonObject): string | undefined =>
  refOf(obj(op, "requestBody", "content", "application/json").schema);
const responseRef = (op: JsonObject, status: string): string | undefined =>
  refOf(obj(op, "responses", status, "content", "application/json").schema);
const itemsRef = (schemaName: string, name: string): string | undefined => refOf(property(schemaName, name).items);
const parameterNames = (op: JsonObject, path: string): string[] => {
  const pathLevel = isObject(spec.paths) ? obj(spec.paths, path).parameters : undefined;
  const all: Json[] = [
    ...(Array.isArray(pathLevel) ? pathLevel : []),
    ...(Array.isArray(op.parameters) ? op.parameters : []),
  ];
  return all.map((parameter) => `${str(parameter, "in")}:${str(parameter, "name")}`);
};
const parameter = (op: JsonObject, path: string, name: string): JsonObject => {
  const pathLevel = obj(spec, "paths", path).parameters;
  const all: Json[] = [
    ...(Array.isArray(pathLevel) ? pathLevel : []),
    ...(Array.isArray(op.parameters) ? op.parameters : []),
  ];
  const found = all.find((candidate) => str(candidate, "name") === name);
  if (found === undefined) {
    throw new Error(`no parameter ${name} on ${path}`);
  }
  return obj(found);
};
const description = (): string => str(spec, "info", "description");
const ref = (name: string): string => `#/components/schemas/${name}`;

const INBOXES = "/v0/inboxes";
const INBOX = "/v0/inboxes/{inbox_id}";
const MESSAGES = "/v0/inboxes/{inbox_id}/messages";
const MESSAGE = "/v0/inboxes/{inbox_id}/messages/{message_id}";
const THREADS = "/v0/inboxes/{inbox_id}/threads";
const THREAD = "/v0/inboxes/{inbox_id}/threads/{thread_id}";
const WEBHOOKS = "/v0/webhooks";
const WEBHOOK = "/v0/webhooks/{webhook_id}";
/** The media type of each download's success; every other body is JSON. */
const DOWNLOADS: Record<string, string> = {
  getAttachment: "application/octet-stream",
  getRawMessage: "message/rfc822",
  getThreadAttachment: "application/octet-stream",
  getDownload: "application/octet-stream",
};
/** Downloads that also answer AgentMail's JSON (a signed link) to a request that asks for JSON. */
const JSON_ALTERNATIVE = ["getAttachment", "getRawMessage", "getThreadAttachment"];
/** Successes that are text, not JSON: a domain's zone file is meant to be imported into a DNS provider as it is. */
const TEXT_ANSWERS: Record<string, string> = { getDomainZoneFile: "text/plain" };
/** Operations whose path parameters are enums only (a list's direction and type): nothing there can be missing. */
const NOTHING_TO_FIND = ["listListEntries", "createListEntry"];
const LISTS: [string, string, string, string][] = [
  [INBOXES, "ListInboxesResponse", "inboxes", "Inbox"],
  [MESSAGES, "ListMessagesResponse", "messages", "MessageItem"],
  [THREADS, "ListThreadsResponse", "threads", "ThreadItem"],
  [WEBHOOKS, "ListWebhooksResponse", "webhooks", "Webhook"],
];

describe("the API", () => {
  it("is an OpenAPI 3.1 description titled Pigeonhole Inbox API, MIT licensed", () => {
    expect(spec.openapi).toBe("3.1.0");
    expect(str(spec, "info", "title")).toBe("Pigeonhole Inbox API");
    expect(str(spec, "info", "license", "identifier")).toBe("MIT");
  });

  it("has exactly the seed's paths and the reviewed added paths beyond it, all under /v0", () => {
    const seedPaths = [INBOXES, INBOX, MESSAGES, MESSAGE, THREADS, THREAD, WEBHOOKS, WEBHOOK];
    expect(Object.keys(obj(spec, "paths")).sort()).toEqual([...new Set([...seedPaths, ...ADDED_PATHS])].sort());
    for (const path of Object.keys(obj(spec, "paths"))) {
      expect(path).toMatch(/^\/v0\//);
    }
  });

  it("has the operations the seed names, with the decided operationIds, and exactly the reviewed additions beyond them", () => {
    const ids = operationsOf(obj(spec, "paths")).map(
      ({ path, method, operation: op }) => `${method} ${path} ${op.operationId}`,
    );
    const seed = [
      `post ${INBOXES} createInbox`,
      `get ${INBOXES} listInboxes`,
      `get ${INBOX} getInbox`,
      `post ${MESSAGES} sendMessage`,
      `get ${MESSAGES} listMessages`,
      `get ${MESSAGE} getMessage`,
      `get ${THREADS} listThreads`,
      `get ${THREAD} getThread`,
      `post ${WEBHOOKS} createWebhook`,
      `get ${WEBHOOKS} listWebhooks`,
      `get ${WEBHOOK} getWebhook`,
      `put ${WEBHOOK} updateWebhook`,
      `delete ${WEBHOOK} deleteWebhook`,
    ];
    expect(seed).toHaveLength(13);
    for (const operation of seed) {
      expect(ids, operation).toContain(operation);
    }
    // Beyond the seed (DECISIONS.md), additive: nothing above changes. The list is reviewed in added-operations.ts.
    expect(new Set(ADDED).size).toBe(ADDED.length);
    expect(ids.sort()).toEqual([...seed, ...ADDED].sort());
  });

  it("takes JSON only and answers JSON, except the downloads' successes (binary, some with a JSON link) and the zone file (text)", () => {
    const downloads: string[] = [];
    for (const { operation: op } of operationsOf(obj(spec, "paths"))) {
      const id = str(op, "operationId");
      if (isObject(op.requestBody)) {
        expect(Object.keys(obj(op, "requestBody", "content")), id).toEqual(["application/json"]);
      }
      for (const [status, response] of Object.entries(obj(op, "responses"))) {
        const content = obj(response).content;
        if (content === undefined) {
          continue;
        }
        const text = status === "200" ? TEXT_ANSWERS[id] : undefined;
        if (text !== undefined) {
          expect(Object.keys(obj(content)), `${id} ${status}`).toEqual([text]);
          expect(obj(content, text, "schema")).toMatchObject({ type: "string" });
          continue;
        }
        const download = status === "200" ? DOWNLOADS[id] : undefined;
        // A download may also answer AgentMail's JSON (a signed link) to a request that asks for JSON.
        const alternative = download !== undefined && JSON_ALTERNATIVE.includes(id) ? ["application/json"] : [];
        expect(Object.keys(obj(content)), `${id} ${status}`).toEqual([download ?? "application/json", ...alternative]);
        if (download !== undefined) {
          expect(obj(content, download, "schema")).toMatchObject({ type: "string", format: "binary" });
          downloads.push(id);
        }
      }
    }
    expect(downloads.sort()).toEqual(Object.keys(DOWNLOADS).sort());
    expect(description()).toContain("except the downloads");
    expect(description()).toContain("zone file (`text/plain`)");
  });

  it("documents ISO 8601 UTC timestamps with milliseconds, and every *_at and timestamp field is a date-time", () => {
    expect(description()).toContain("ISO 8601");
    expect(description()).toContain("2026-11-22T09:30:00.000Z");
    let checked = 0;
    for (const [name, candidate] of Object.entries(obj(spec, "components", "schemas"))) {
      const properties = obj(candidate).properties;
      if (!isObject(properties)) {
        continue;
      }
      for (const [field, value] of Object.entries(properties)) {
        if (field.endsWith("_at") || field === "timestamp") {
          expect(obj(value).format, `${name}.${field}`).toBe("date-time");
          expect(obj(value).examples, `${name}.${field}`).toEqual([expect.stringMatching(/\.\d{3}Z$/)]);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(17);
  });
});

describe("authentication", () => {
  it("every request carries Authorization: Bearer <API_KEY>", () => {
    expect(obj(spec, "components", "securitySchemes", "bearerAuth")).toMatchObject({ type: "http", scheme: "bearer" });
    expect(spec.security).toEqual([{ bearerAuth: [] }]);
    for (const { operation: op } of operationsOf(obj(spec, "paths"))) {
      // A signed download link is its own permission: the one operation without a key.
      expect(op.security).toEqual(str(op, "operationId") === "getDownload" ? [] : [{ bearerAuth: [] }]);
    }
  });

  it("an invalid or missing key answers 401 authentication_error on every path", () => {
    for (const { path, method, operation: op } of operationsOf(obj(spec, "paths"))) {
      if (str(op, "operationId") !== "getDownload") {
        expect(refOf(obj(op, "responses")["401"]), `${method} ${path}`).toBe("#/components/responses/Unauthorized");
      }
    }
    const codes = Object.values(
      obj(spec, "components", "responses", "Unauthorized", "content", "application/json", "examples"),
    ).map((example) => str(example, "value", "error", "details", "code"));
    expect(codes.sort()).toEqual(["INVALID_API_KEY", "MISSING_API_KEY"]);
  });

  it("a key is a tenant and a foreign id answers 404, never 403", () => {
    expect(description()).toContain("tenant");
    expect(description()).toMatch(/404/);
    expect(description()).toContain("never 403");
    for (const { operation: op } of operationsOf(obj(spec, "paths"))) {
      expect(Object.keys(obj(op, "responses"))).not.toContain("403");
    }
  });
});

describe("inboxes", () => {
  it("an Inbox has pod_id, inbox_id, display_name, created_at, updated_at and client_id, all required", () => {
    // Beyond the seed, additive: `email` (required, the address again under AgentMail's name) and `metadata`
    // (AgentMail's, set by Update Inbox).
    const seedRequired = ["pod_id", "inbox_id", "display_name", "client_id", "created_at", "updated_at"];
    const added = ["email", "metadata"];
    expect([...(schema("Inbox").required as string[])].sort()).toEqual([...seedRequired, "email"].sort());
    expect(Object.keys(obj(schema("Inbox"), "properties")).sort()).toEqual([...seedRequired, ...added].sort());
  });

  it("pod_id is a UUID and inbox_id is the <username>@<domain> address", () => {
    expect(property("Inbox", "pod_id")).toMatchObject({ type: "string", format: "uuid" });
    const inboxId = obj(schema("Inbox"), "properties").inbox_id;
    expect(refOf(inboxId)).toBe(ref("EmailAddress"));
    // The description beside the reference, not the referenced rule's.
    expect(isObject(inboxId) ? inboxId.description : undefined).toContain("<username>@<domain>");
  });

  it("every address follows one rule, the EmailAddress schema, which the specs describe exactly", () => {
    const address = schema("EmailAddress");
    expect(address).toMatchObject({ type: "string", format: "email", maxLength: 254 });
    const rule = new RegExp(str(address, "pattern"), "u");
    for (const good of [
      "ada@example.com",
      "o'brien+tag@sub.example.co",
      "Grace.Hopper@Example.COM",
      "0@a.bc",
      "x@a.xn--p1ai",
    ]) {
      expect(rule.test(good), good).toBe(true);
    }
    for (const bad of ["trail.@net", "trail.@example.com", "a..b@example.com", ".a@example.com", "ada@net"]) {
      expect(rule.test(bad), bad).toBe(false);
    }
    for (const bad of ["ada@example.com.", "ada@-x.com", '"a b"@example.com', "ada@[127.0.0.1]", "Ada <ada@x.com>"]) {
      expect(rule.test(bad), bad).toBe(false);
    }
    // The top-level label has two or more characters and starts with a letter, as every top-level domain does.
    for (const bad of ["0@a.b", "x@i.i.tf.b", "ada@example.123", "ada@example.1a"]) {
      expect(rule.test(bad), bad).toBe(false);
    }
    expect(description()).toContain("## Addresses");
    expect(description()).toContain("`EmailAddress`");
  });

  it("display_name and client_id are strings or null", () => {
    expect(property("Inbox", "display_name").type).toEqual(["string", "null"]);
    expect(property("Inbox", "client_id").type).toEqual(["string", "null"]);
  });

  it("Create Inbox is POST /v0/inboxes, with an optional body, and answers 200 with the Inbox", () => {
    const op = operation(INBOXES, "post");
    expect(op.operationId).toBe("createInbox");
    expect(obj(op, "requestBody").required).toBe(false);
    expect(requestRef(op)).toBe(ref("CreateInboxRequest"));
    expect(responseRef(op, "200")).toBe(ref("Inbox"));
    expect(Object.keys(obj(op, "responses"))).not.toContain("201");
  });

  it("Create Inbox takes username, domain, display_name and client_id, all optional, nothing else", () => {
    const body = schema("CreateInboxRequest");
    expect(Object.keys(obj(body, "properties")).sort()).toEqual(["client_id", "display_name", "domain", "username"]);
    expect(body.required).toBeUndefined();
    expect(body.additionalProperties).toBe(false);
  });

  it("username is 1 to 64 lowercase characters and domain defaults to pigeonhole.test", () => {
    expect(property("CreateInboxRequest", "username")).toMatchObject({
      type: "string",
      minLength: 1,
      maxLength: 64,
      pattern: "^[a-z0-9][a-z0-9_-]*(?:\\.[a-z0-9_-]+)*$",
    });
    expect(property("CreateInboxRequest", "domain")).toMatchObject({ type: "string", format: "hostname" });
    // Each part alone already keeps the address within the address rule, except for its total length.
    const address = new RegExp(str(schema("EmailAddress"), "pattern"), "u");
    const username = new RegExp(str(property("CreateInboxRequest", "username"), "pattern"), "u");
    const domain = new RegExp(str(property("CreateInboxRequest", "domain"), "pattern"), "u");
    for (const [user, host] of [
      ["trail.", "example.com"],
      ["a..b", "example.com"],
      ["ok", "net"],
      ["ok", "example.com."],
    ] as const) {
      expect(username.test(user) && domain.test(host), `${user}@${host}`).toBe(false);
      expect(address.test(`${user}@${host}`), `${user}@${host}`).toBe(false);
    }
    expect(username.test("first.last") && domain.test("Mail.Example.com")).toBe(true);
    expect(str(property("CreateInboxRequest", "domain"), "description")).toContain("`pigeonhole.test`");
    // Null, as the Inbox answers a missing name, means none.
    expect(property("CreateInboxRequest", "display_name")).toMatchObject({ type: ["string", "null"], maxLength: 128 });
  });

  it("client_id is 1 to 128 characters without @, and repeating it returns the first inbox unchanged", () => {
    const clientId = property("CreateInboxRequest", "client_id");
    expect(clientId).toMatchObject({ minLength: 1, maxLength: 128, pattern: "^[A-Za-z0-9._~-]+$" });
    expect(new RegExp(str(clientId, "pattern")).test("a@b")).toBe(false);
    expect(str(operation(INBOXES, "post"), "description")).toMatch(
      /same `client_id`|`client_id` the API key already used/,
    );
    expect(str(operation(INBOXES, "post"), "description")).toContain("unchanged");
  });

  it("a taken address is a 409 conflict_error with ADDRESS_TAKEN", () => {
    const op = operation(INBOXES, "post");
    expect(refOf(obj(op, "responses")["409"])).toBe("#/components/responses/AddressTaken");
    const example = obj(
      spec,
      "components",
      "responses",
      "AddressTaken",
      "content",
      "application/json",
      "examples",
      "addressTaken",
      "value",
    );
    expect(at(example, "error", "type")).toBe("conflict_error");
    expect(at(example, "error", "details", "code")).toBe("ADDRESS_TAKEN");
  });

  it("List Inboxes is GET /v0/inboxes with the query parameters limit and page_token", () => {
    const op = operation(INBOXES, "get");
    expect(op.operationId).toBe("listInboxes");
    expect(parameterNames(op, INBOXES)).toEqual(["query:limit", "query:page_token"]);
  });

  it("List Inboxes answers count, inboxes, limit and next_page_token", () => {
    const body = responseSchema(operation(INBOXES, "get"), "200");
    expect([...arr(body, "required")].sort()).toEqual(["count", "inboxes", "limit", "next_page_token"]);
    expect(property("ListInboxesResponse", "count").type).toBe("integer");
    expect(property("ListInboxesResponse", "limit").type).toBe("integer");
    expect(property("ListInboxesResponse", "next_page_token").type).toEqual(["string", "null"]);
    expect(itemsRef("ListInboxesResponse", "inboxes")).toBe(ref("Inbox"));
  });

  it("Get Inbox is GET /v0/inboxes/{inbox_id}, the address as path segment, and answers the Inbox", () => {
    const op = operation(INBOX, "get");
    expect(op.operationId).toBe("getInbox");
    expect(parameter(op, INBOX, "inbox_id")).toMatchObject({ in: "path", required: true });
    expect(refOf(parameter(op, INBOX, "inbox_id").schema)).toBe(ref("EmailAddress"));
    expect(responseRef(op, "200")).toBe(ref("Inbox"));
  });
});

describe("pagination", () => {
  it("every list, the thread list included, accepts limit and page_token; messages and threads also labels", () => {
    for (const [path] of LISTS) {
      const query = parameterNames(operation(path, "get"), path).filter((name) => name.startsWith("query:"));
      const filtered = path === MESSAGES || path === THREADS;
      expect(query, path).toEqual(["query:limit", "query:page_token", ...(filtered ? ["query:labels"] : [])]);
    }
  });

  it("limit is an integer with default 20 and maximum 100; larger values are a 400", () => {
    const limit = obj(spec, "components", "parameters", "Limit");
    expect(limit).toMatchObject({ name: "limit", in: "query", required: false });
    expect(obj(limit, "schema")).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 20 });
    expect(str(limit, "description")).toContain("Larger values are a 400");
  });

  it("every list answers {count, limit, next_page_token, <array>} with its named item schema", () => {
    for (const [path, name, array, item] of LISTS) {
      expect(responseRef(operation(path, "get"), "200"), path).toBe(ref(name));
      expect([...arr(schema(name), "required")].sort(), name).toEqual(
        [array, "count", "limit", "next_page_token"].sort(),
      );
      expect(itemsRef(name, array), name).toBe(ref(item));
      expect(property(name, "next_page_token").type, name).toEqual(["string", "null"]);
    }
  });

  it("lists are newest first, count is the page's items, and next_page_token is null on the last page", () => {
    for (const [, name] of LISTS) {
      expect(str(schema(name), "description"), name).toContain("newest first");
      expect(str(property(name, "count"), "description"), name).toContain("on this page");
      expect(str(property(name, "next_page_token"), "description"), name).toContain("null on the last page");
    }
  });

  it("page tokens are opaque and stable, and a foreign token is INVALID_PAGE_TOKEN", () => {
    const pageToken = obj(spec, "components", "parameters", "PageToken");
    expect(pageToken).toMatchObject({ name: "page_token", in: "query", schema: { type: "string" } });
    expect(str(pageToken, "description")).toContain("Opaque");
    expect(str(pageToken, "description")).toContain("never repeats or skips");
    expect(str(pageToken, "description")).toContain("INVALID_PAGE_TOKEN");
  });
});

describe("messages", () => {
  it("Send Message is POST /v0/inboxes/{inbox_id}/messages and answers 200 with message_id and thread_id", () => {
    const op = operation(MESSAGES, "post");
    expect(op.operationId).toBe("sendMessage");
    expect(obj(op, "requestBody").required).toBe(true);
    expect(requestRef(op)).toBe(ref("SendMessageRequest"));
    expect(responseRef(op, "200")).toBe(ref("SendMessageResponse"));
    expect(schema("SendMessageResponse").required).toEqual(["message_id", "thread_id"]);
  });

  it("Send Message takes to (required), cc, bcc, reply_to, subject, text, html, labels, attachments and headers", () => {
    const body = schema("SendMessageRequest");
    expect(body.required).toEqual(["to"]);
    expect(body.additionalProperties).toBe(false);
    expect(Object.keys(obj(body, "properties")).sort()).toEqual(
      ["attachments", "bcc", "cc", "headers", "html", "labels", "reply_to", "subject", "text", "to"].sort(),
    );
    expect(property("SendMessageRequest", "subject")).toMatchObject({ type: "string", maxLength: 998 });
    expect(property("SendMessageRequest", "text").type).toBe("string");
    expect(property("SendMessageRequest", "html").type).toBe("string");
  });

  it("to, cc, bcc and reply_to are a string or an array of strings (addresses)", () => {
    for (const field of ["to", "cc", "bcc", "reply_to"]) {
      expect(refOf(obj(schema("SendMessageRequest"), "properties")[field]), field).toBe(ref("AddressList"));
    }
    const [single, list] = arr(schema("AddressList"), "oneOf");
    expect(refOf(single)).toBe(ref("EmailAddress"));
    expect(list).toMatchObject({ type: "array", minItems: 1, maxItems: 50, items: { $ref: ref("EmailAddress") } });
  });

  it("at most 50 recipients over to, cc and bcc, at least one in to (TOO_MANY_RECIPIENTS)", () => {
    const text = str(schema("SendMessageRequest"), "description");
    expect(text).toContain("at most 50 recipients");
    expect(text).toContain("TOO_MANY_RECIPIENTS");
    expect(str(operation(MESSAGES, "post"), "description")).toContain("at least one address in `to`");
  });

  it("labels are an array of strings, at most 20 of 1 to 64 characters", () => {
    expect(property("SendMessageRequest", "labels")).toMatchObject({
      type: "array",
      maxItems: 20,
      items: { type: "string", minLength: 1, maxLength: 64 },
    });
  });

  it("attachments are objects with filename, content (base64) and content_type", () => {
    expect(property("SendMessageRequest", "attachments")).toMatchObject({ type: "array", maxItems: 20 });
    expect(itemsRef("SendMessageRequest", "attachments")).toBe(ref("SendAttachment"));
    const attachment = schema("SendAttachment");
    expect(attachment.required).toEqual(["filename", "content"]);
    expect(Object.keys(obj(attachment, "properties")).sort()).toEqual(["content", "content_type", "filename"]);
    expect(property("SendAttachment", "content")).toMatchObject({ type: "string", contentEncoding: "base64" });
    expect(property("SendAttachment", "filename")).toMatchObject({ minLength: 1, maxLength: 255 });
    expect(str(property("SendAttachment", "content_type"), "description")).toContain("application/octet-stream");
  });

  it("headers map custom header names to string values", () => {
    expect(property("SendMessageRequest", "headers")).toMatchObject({
      type: "object",
      additionalProperties: { type: "string" },
    });
  });

  it("Send Message honours an optional Idempotency-Key header of 1 to 256 characters", () => {
    const key = parameter(operation(MESSAGES, "post"), MESSAGES, "Idempotency-Key");
    expect(key).toMatchObject({ in: "header", required: false });
    expect(obj(key, "schema")).toMatchObject({
      type: "string",
      minLength: 1,
      maxLength: 256,
      pattern: "^[A-Za-z0-9._~-]+$",
    });
    expect(str(key, "description")).toContain("24");
  });

  it("the same Idempotency-Key with another body is a 409 IDEMPOTENCY_KEY_REUSED", () => {
    expect(refOf(obj(operation(MESSAGES, "post"), "responses")["409"])).toBe(
      "#/components/responses/IdempotencyKeyReused",
    );
    const example = obj(
      spec,
      "components",
      "responses",
      "IdempotencyKeyReused",
      "content",
      "application/json",
      "examples",
      "idempotencyKeyReused",
    );
    expect(at(example, "value", "error", "details", "code")).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(str(obj(spec, "components", "parameters", "IdempotencyKey"), "description")).toContain("sends nothing");
  });

  it("List Messages is GET /v0/inboxes/{inbox_id}/messages and answers MessageItem records", () => {
    const op = operation(MESSAGES, "get");
    expect(op.operationId).toBe("listMessages");
    expect(responseRef(op, "200")).toBe(ref("ListMessagesResponse"));
    expect(itemsRef("ListMessagesResponse", "messages")).toBe(ref("MessageItem"));
  });

  it("a MessageItem has the anchor's fields, all required, without bodies", () => {
    const fields = [
      "inbox_id",
      "thread_id",
      "message_id",
      "labels",
      "timestamp",
      "from",
      "to",
      "cc",
      "bcc",
      "subject",
      "preview",
      "attachments",
      "in_reply_to",
      "references",
      "headers",
      "size",
      "created_at",
      "updated_at",
    ];
    expect([...arr(schema("MessageItem"), "required")].sort()).toEqual([...fields].sort());
    expect(Object.keys(obj(schema("MessageItem"), "properties")).sort()).toEqual([...fields].sort());
    expect(property("MessageItem", "size").type).toBe("integer");
    expect(property("MessageItem", "preview").type).toEqual(["string", "null"]);
    expect(itemsRef("MessageItem", "attachments")).toBe(ref("Attachment"));
  });

  it("Get Message is GET /v0/inboxes/{inbox_id}/messages/{message_id} and answers a Message with reply_to, text, html and deliveries", () => {
    const op = operation(MESSAGE, "get");
    expect(op.operationId).toBe("getMessage");
    expect(responseRef(op, "200")).toBe(ref("Message"));
    const itemFields = arr(schema("MessageItem"), "required");
    expect([...arr(schema("Message"), "required")].sort()).toEqual(
      [...itemFields, "reply_to", "text", "html", "deliveries"].sort(),
    );
    expect(property("Message", "text").type).toEqual(["string", "null"]);
    expect(property("Message", "html").type).toEqual(["string", "null"]);
    expect(schema("Message").allOf).toBeUndefined();
  });

  it("message ids contain <, @ and > and travel URL-encoded", () => {
    const messageId = obj(spec, "components", "parameters", "MessageId");
    expect(messageId).toMatchObject({ name: "message_id", in: "path", required: true });
    expect(str(messageId, "example")).toMatch(/^<.+@.+>$/);
    expect(str(messageId, "description")).toContain("URL-encoded");
  });

  it("an attachment record has attachment_id, filename, content_type and size", () => {
    expect(schema("Attachment").required).toEqual(["attachment_id", "filename", "content_type", "size"]);
    expect(property("Attachment", "size").type).toBe("integer");
  });

  it("the sender's copy is labelled sent, a delivered copy received, and replies join the thread", () => {
    const text = str(schema("Message"), "description");
    expect(text).toContain("`sent`");
    expect(text).toContain("`received`");
    expect(text).toContain("join its thread");
    expect(str(operation(MESSAGES, "post"), "description")).toContain("In-Reply-To");
  });
});

describe("threads", () => {
  /** Added beyond the seed, AgentMail's names (see additions.test.ts). */
  const AGENTMAIL_THREAD_FIELDS = [
    "timestamp",
    "received_timestamp",
    "sent_timestamp",
    "senders",
    "recipients",
    "last_message_id",
    "preview",
    "size",
  ];
  const threadFields = [
    "thread_id",
    "inbox_id",
    "subject",
    "participants",
    "labels",
    "message_count",
    "last_message_at",
    "created_at",
    "updated_at",
  ];

  it("List Threads is GET /v0/inboxes/{inbox_id}/threads and answers ThreadItem records", () => {
    const op = operation(THREADS, "get");
    expect(op.operationId).toBe("listThreads");
    expect(responseRef(op, "200")).toBe(ref("ListThreadsResponse"));
    expect(itemsRef("ListThreadsResponse", "threads")).toBe(ref("ThreadItem"));
  });

  it("a thread has thread_id, inbox_id, subject, participants, labels, message_count, last_message_at, created_at and updated_at", () => {
    // Beyond the seed, additive: AgentMail's summary of the thread's messages, which its clients read.
    expect(schema("ThreadItem").required).toEqual([...threadFields, ...AGENTMAIL_THREAD_FIELDS]);
    // Addresses, each following the one address rule.
    expect(property("ThreadItem", "participants")).toMatchObject({
      type: "array",
      items: { $ref: ref("EmailAddress") },
    });
    expect(property("ThreadItem", "labels")).toMatchObject({ type: "array", items: { type: "string" } });
    expect(property("ThreadItem", "message_count").type).toBe("integer");
  });

  it("Get Thread is GET /v0/inboxes/{inbox_id}/threads/{thread_id} and adds messages, oldest first", () => {
    const op = operation(THREAD, "get");
    expect(op.operationId).toBe("getThread");
    expect(responseRef(op, "200")).toBe(ref("Thread"));
    expect(schema("Thread").required).toEqual([...threadFields, ...AGENTMAIL_THREAD_FIELDS, "count", "messages"]);
    expect(itemsRef("Thread", "messages")).toBe(ref("Message"));
    expect(str(property("Thread", "messages"), "description")).toContain("oldest first");
  });
});

describe("webhooks", () => {
  it("Create Webhook is POST /v0/webhooks with url (required), client_id, enabled, event_types and inbox_ids", () => {
    const op = operation(WEBHOOKS, "post");
    expect(op.operationId).toBe("createWebhook");
    expect(requestRef(op)).toBe(ref("CreateWebhookRequest"));
    const body = requestSchema(op);
    expect(body.required).toEqual(["url"]);
    expect(body.additionalProperties).toBe(false);
    expect(Object.keys(obj(body, "properties")).sort()).toEqual([
      "client_id",
      "enabled",
      "event_types",
      "inbox_ids",
      "url",
    ]);
    expect(property("CreateWebhookRequest", "url")).toMatchObject({ type: "string", format: "uri" });
    expect(str(property("CreateWebhookRequest", "url"), "description")).toContain("HTTPS");
    expect(property("CreateWebhookRequest", "enabled").type).toBe("boolean");
  });

  it("event_types is optional (all types when omitted) and inbox_ids restricts to at most 10 inboxes", () => {
    // Null, as the Webhook answers "all", means all.
    expect(property("CreateWebhookRequest", "event_types")).toMatchObject({
      type: ["array", "null"],
      minItems: 1,
      uniqueItems: true,
    });
    expect(itemsRef("CreateWebhookRequest", "event_types")).toBe(ref("EventType"));
    expect(property("CreateWebhookRequest", "inbox_ids")).toMatchObject({
      type: ["array", "null"],
      minItems: 1,
      maxItems: 10,
      items: { $ref: ref("EmailAddress") },
    });
    expect(property("Webhook", "event_types").type).toEqual(["array", "null"]);
    expect(str(property("Webhook", "event_types"), "description")).toContain("null means all event types");
    expect(property("Webhook", "inbox_ids").type).toEqual(["array", "null"]);
  });

  it("a webhook record adds webhook_id, secret (whsec_), created_at and updated_at to the seed's fields", () => {
    expect(schema("Webhook").required).toEqual([
      "webhook_id",
      "url",
      "client_id",
      "enabled",
      "event_types",
      "inbox_ids",
      "secret",
      "created_at",
      "updated_at",
    ]);
    expect(str(property("Webhook", "secret"), "pattern")).toContain("whsec_");
    expect(responseRef(operation(WEBHOOKS, "post"), "200")).toBe(ref("Webhook"));
    expect(responseRef(operation(WEBHOOK, "get"), "200")).toBe(ref("Webhook"));
  });

  it("List Webhooks is GET /v0/webhooks and answers Webhook records", () => {
    const op = operation(WEBHOOKS, "get");
    expect(op.operationId).toBe("listWebhooks");
    expect(itemsRef("ListWebhooksResponse", "webhooks")).toBe(ref("Webhook"));
  });

  it("Update Webhook is PUT /v0/webhooks/{webhook_id}, a full replace answering 200 with the Webhook", () => {
    const op = operation(WEBHOOK, "put");
    expect(op.operationId).toBe("updateWebhook");
    expect(requestRef(op)).toBe(ref("UpdateWebhookRequest"));
    expect(schema("UpdateWebhookRequest").required).toEqual(["url"]);
    expect(responseRef(op, "200")).toBe(ref("Webhook"));
    expect(str(op, "description")).toContain("as a whole");
    // AgentMail's partial edit is PATCH beside it (DECISIONS.md, AgentMail compatibility), with its own body.
    const edit = operation(WEBHOOK, "patch");
    expect(edit.operationId).toBe("editWebhook");
    expect(requestRef(edit)).toBe(ref("PatchWebhookRequest"));
    expect(responseRef(edit, "200")).toBe(ref("Webhook"));
  });

  it("Delete Webhook is DELETE /v0/webhooks/{webhook_id} and answers 204 without a body", () => {
    const op = operation(WEBHOOK, "delete");
    expect(op.operationId).toBe("deleteWebhook");
    expect(Object.keys(obj(op, "responses")).filter((status) => status.startsWith("2"))).toEqual(["204"]);
    expect(obj(op, "responses", "204").content).toBeUndefined();
  });

  it("event types are the five the service emits plus the anchor's other names", () => {
    expect(arr(schema("EventType"), "enum")).toEqual([
      "message.received",
      "message.received.spam",
      "message.received.blocked",
      "message.received.unauthenticated",
      "message.sent",
      "message.delivered",
      "message.delayed",
      "message.bounced",
      "message.complained",
      "message.rejected",
      "domain.verified",
    ]);
  });
});

describe("events", () => {
  it("webhooks deliver message.received, message.sent, the three relay outcomes and complaints as POST requests", () => {
    const deliveries = operationsOf(obj(spec, "webhooks"));
    expect(deliveries.map(({ path, method }) => `${method} ${path}`).sort()).toEqual([
      "post message.bounced",
      "post message.complained",
      "post message.delayed",
      "post message.delivered",
      "post message.received",
      "post message.sent",
    ]);
  });

  it("a message.received delivery is {type: event, event_type, event_id, message, thread}", () => {
    const op = obj(spec, "webhooks", "message.received", "post");
    expect(requestRef(op)).toBe(ref("MessageReceivedEvent"));
    const event = schema("MessageReceivedEvent");
    expect(event.required).toEqual(["type", "event_type", "event_id", "message", "thread"]);
    expect(property("MessageReceivedEvent", "type").const).toBe("event");
    expect(property("MessageReceivedEvent", "event_type").const).toBe("message.received");
    expect(refOf(obj(event, "properties").message)).toBe(ref("Message"));
    expect(refOf(obj(event, "properties").thread)).toBe(ref("ThreadItem"));
  });

  it("a message.sent delivery carries send with inbox_id, thread_id, message_id, timestamp and recipients", () => {
    const op = obj(spec, "webhooks", "message.sent", "post");
    expect(requestRef(op)).toBe(ref("MessageSentEvent"));
    expect(property("MessageSentEvent", "event_type").const).toBe("message.sent");
    expect(refOf(obj(schema("MessageSentEvent"), "properties").send)).toBe(ref("MessageSent"));
    expect(schema("MessageSent").required).toEqual(["inbox_id", "thread_id", "message_id", "timestamp", "recipients"]);
  });

  it("deliveries are signed as Standard Webhooks under both webhook-* and svix-* header names", () => {
    for (const { path, operation: op } of operationsOf(obj(spec, "webhooks"))) {
      const headers = arr(op, "parameters").map((p) => obj(p));
      expect(
        headers.map((h) => `${h.in}:${h.name}:${h.required}`),
        path,
      ).toEqual([
        "header:webhook-id:true",
        "header:webhook-timestamp:true",
        "header:webhook-signature:true",
        "header:svix-id:true",
        "header:svix-timestamp:true",
        "header:svix-signature:true",
      ]);
      expect(str(op, "description"), path).toContain("HMAC-SHA256");
      expect(op.security, path).toEqual([]);
    }
    expect(str(obj(spec, "components", "parameters", "WebhookSignatureHeader"), "description")).toContain("whsec_");
  });

  it("delivery is at-least-once: any 2xx acknowledges, other answers are retried with backoff", () => {
    for (const { path, operation: op } of operationsOf(obj(spec, "webhooks"))) {
      const text = str(op, "responses", "200", "description");
      expect(text, path).toContain("2xx");
      expect(text, path).toContain("15 seconds");
      expect(text, path).toContain("exponential backoff");
      expect(text, path).toContain("at-least-once");
    }
  });
});

describe("errors", () => {
  it("every error uses the envelope {error: {type, message, details: {field, code}}}", () => {
    expect(schema("ErrorResponse").required).toEqual(["error"]);
    expect(refOf(obj(schema("ErrorResponse"), "properties").error)).toBe(ref("ErrorBody"));
    expect(schema("ErrorBody").required).toEqual(["type", "message", "details"]);
    expect(refOf(obj(schema("ErrorBody"), "properties").details)).toBe(ref("ErrorDetails"));
    expect(schema("ErrorDetails").required).toEqual(["field", "code"]);
    expect(property("ErrorDetails", "field").type).toEqual(["string", "null"]);
  });

  it("error.type is one of the decided categories", () => {
    expect(refOf(obj(schema("ErrorBody"), "properties").type)).toBe(ref("ErrorType"));
    expect(arr(schema("ErrorType"), "enum")).toEqual([
      "validation_error",
      "authentication_error",
      "not_found_error",
      "conflict_error",
      "rate_limit_error",
      "payload_too_large_error",
      "internal_error",
    ]);
  });

  it("details.code is UPPER_SNAKE and the decided codes are documented, INVALID_EMAIL among them", () => {
    const code = property("ErrorDetails", "code");
    expect(code.pattern).toBe("^[A-Z][A-Z0-9_]*$");
    const codes = arr(code, "examples");
    const errorsSection = description().slice(description().indexOf("## Errors"));
    for (const expected of [
      "INVALID_EMAIL",
      "REQUIRED",
      "INVALID_TYPE",
      "INVALID_VALUE",
      "TOO_LONG",
      "TOO_MANY_RECIPIENTS",
      "INVALID_PAGE_TOKEN",
      "INVALID_JSON",
      "INVALID_API_KEY",
      "MISSING_API_KEY",
      "NOT_FOUND",
      "METHOD_NOT_ALLOWED",
      "ADDRESS_TAKEN",
      "IDEMPOTENCY_KEY_REUSED",
      "CLIENT_ID_TAKEN",
      "WEBHOOK_LIMIT_REACHED",
      "INVALID_URL",
      "RATE_LIMIT_EXCEEDED",
      "SEND_LIMIT_EXCEEDED",
      "PAYLOAD_TOO_LARGE",
      "INTERNAL_ERROR",
    ]) {
      expect(codes).toContain(expected);
      // Explained once, in the overview's Errors section, rather than under every error status.
      expect(errorsSection).toContain(`\`${expected}\``);
    }
  });

  it("each error status has its response with a matching error.type in its examples", () => {
    const expected: Record<string, [string, string]> = {
      BadRequest: ["400", "validation_error"],
      Unauthorized: ["401", "authentication_error"],
      NotFound: ["404", "not_found_error"],
      AddressTaken: ["409", "conflict_error"],
      IdempotencyKeyReused: ["409", "conflict_error"],
      ClientIdTaken: ["409", "conflict_error"],
      WebhookLimitReached: ["409", "conflict_error"],
      BadRequestInvalidUrl: ["400", "validation_error"],
      PayloadTooLarge: ["413", "payload_too_large_error"],
      TooManyRequests: ["429", "rate_limit_error"],
      InternalServerError: ["500", "internal_error"],
    };
    const used = new Map<string, string>();
    for (const { operation: op } of operationsOf(obj(spec, "paths"))) {
      for (const [status, response] of Object.entries(obj(op, "responses"))) {
        const name = refOf(response)?.split("/").pop();
        if (name !== undefined) {
          used.set(name, status);
        }
      }
    }
    for (const [name, [status, type]] of Object.entries(expected)) {
      expect(used.get(name), name).toBe(status);
      const examples = Object.values(
        obj(spec, "components", "responses", name, "content", "application/json", "examples"),
      );
      expect(examples.length, name).toBeGreaterThan(0);
      for (const example of examples) {
        expect(at(example, "value", "error", "type"), name).toBe(type);
      }
    }
  });

  it("a missing resource answers 404 NOT_FOUND on every path with an id", () => {
    for (const { path, method, operation: op } of operationsOf(obj(spec, "paths"))) {
      const has404 = refOf(obj(op, "responses")["404"]) === "#/components/responses/NotFound";
      const findsSomething = path.includes("{") && !NOTHING_TO_FIND.includes(str(op, "operationId"));
      expect(has404, `${method} ${path}`).toBe(findsSomething);
    }
    // The exception holds only while each of those path parameters is an enum.
    for (const { path, operation: op } of operationsOf(obj(spec, "paths"))) {
      if (!NOTHING_TO_FIND.includes(str(op, "operationId"))) {
        continue;
      }
      const names = parameterNames(op, path).filter((name) => name.startsWith("path:"));
      expect(names.length, path).toBeGreaterThan(0);
      for (const name of names) {
        expect(Array.isArray(obj(parameter(op, path, name.slice("path:".length)), "schema").enum), name).toBe(true);
      }
    }
  });
});

describe("limits", () => {
  const tooManyRequestsExample = (name: string) =>
    obj(spec, "components", "responses", "TooManyRequests", "content", "application/json", "examples", name);

  it("API requests are limited to 1000 per minute per API key, answered with 429 RATE_LIMIT_EXCEEDED", () => {
    expect(description()).toContain("1000 per minute per API key");
    const example = tooManyRequestsExample("rateLimitExceeded");
    expect(at(example, "value", "error", "details", "code")).toBe("RATE_LIMIT_EXCEEDED");
  });

  it("sending is limited to 10,000 per day per API key, answered with 429 SEND_LIMIT_EXCEEDED", () => {
    expect(description()).toContain("10,000 per day per API key");
    expect(str(operation(MESSAGES, "post"), "description")).toContain("SEND_LIMIT_EXCEEDED");
    const example = tooManyRequestsExample("sendLimitExceeded");
    expect(at(example, "value", "error", "details", "code")).toBe("SEND_LIMIT_EXCEEDED");
  });

  it("webhook deliveries have no limit", () => {
    expect(description()).toMatch(/\| Webhook deliveries \| no limit \|/);
  });

  it("429 answers carry Retry-After in seconds", () => {
    const retryAfter = obj(spec, "components", "responses", "TooManyRequests", "headers", "Retry-After");
    expect(obj(retryAfter, "schema").type).toBe("integer");
    expect(str(retryAfter, "description")).toContain("seconds");
  });

  it("every response carries X-Request-Id and the X-RateLimit-Limit, -Remaining and -Reset headers", () => {
    // Documented once for the whole API; the server's contract tests check every answer carries them.
    const section = description().slice(description().indexOf("## Response headers"));
    expect(section).toMatch(/^## Response headers\n\nEvery response, success or error, carries these headers/);
    for (const header of ["X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]) {
      expect(section).toContain(`| \`${header}\` |`);
    }
    expect(section).toContain("Unix seconds");
  });

  it("bodies over 10 MiB are a 413 on every operation that takes a body", () => {
    for (const { path, method, operation: op } of operationsOf(obj(spec, "paths"))) {
      const has413 = refOf(obj(op, "responses")["413"]) === "#/components/responses/PayloadTooLarge";
      expect(has413, `${method} ${path}`).toBe(op.requestBody !== undefined);
    }
    expect(str(obj(spec, "components", "responses", "PayloadTooLarge"), "description")).toContain("10 MiB");
  });
});
