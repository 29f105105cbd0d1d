// Checks over every operation of `paths` in the bundle (`dist/openapi.json`; run `pnpm bundle` first): each is
// documented, secured, and lists its error responses with the shared error envelope; the headers every response
// carries are documented once, in the overview. Every body is JSON except the downloads' successes (bytes, some
// with a JSON link alternative) and the zone file's text.

import { isObject, type JsonObject, loadBundle, refOf } from "@pigeonhole/spec-testing/bundle";
import { describe, expect, it } from "vitest";
import { ADDED, SEED_OPERATION_COUNT } from "./added-operations.js";

const { arr, obj, operationsOf, spec, str } = loadBundle(new URL("../dist/openapi.json", import.meta.url));

const operations = operationsOf(obj(spec, "paths"));
const tagNames = (Array.isArray(spec.tags) ? spec.tags : []).map((tag) => str(tag, "name"));
const ERROR_RESPONSE = "#/components/schemas/ErrorResponse";
const EVERY_RESPONSE_HEADERS = ["X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];
/** The one conflict each operation with a 409 can have. */
const CONFLICTS: Record<string, string> = {
  createInbox: "ADDRESS_TAKEN",
  sendMessage: "IDEMPOTENCY_KEY_REUSED",
  replyToMessage: "IDEMPOTENCY_KEY_REUSED",
  sendMessageAtSendPath: "IDEMPOTENCY_KEY_REUSED",
  replyAllMessage: "IDEMPOTENCY_KEY_REUSED",
  forwardMessage: "IDEMPOTENCY_KEY_REUSED",
  updateWebhook: "CLIENT_ID_TAKEN",
  editWebhook: "CLIENT_ID_TAKEN",
  createApiKey: "API_KEY_LIMIT_REACHED",
  deleteApiKey: "KEY_IN_USE",
  createWebhook: "WEBHOOK_LIMIT_REACHED",
  createListEntry: "LIST_LIMIT_REACHED",
  createInboxListEntry: "LIST_LIMIT_REACHED",
  createDraft: "DRAFT_LIMIT_REACHED",
};
/** Operations whose path parameters are enums only: they name nothing that could be missing, so never answer 404. */
const NOTHING_TO_FIND = ["listListEntries", "createListEntry"];
/**
 * Operations that take no input at all (no parameter, no body), so nothing they are sent can be invalid: no 400.
 * The test below checks they really take nothing.
 */
const NO_INPUT = ["getAuthIdentity"];
/** Headers a response may declare: only those particular to its status. */
const STATUS_HEADERS: Record<string, string[]> = { "409": ["X-Should-Retry"], "429": ["Retry-After"] };
/** Headers a success may declare: only those particular to one operation's answer. */
const SUCCESS_HEADERS: Record<string, string[]> = {
  getAttachment: ["Content-Disposition"],
  getThreadAttachment: ["Content-Disposition"],
  getDownload: ["Content-Disposition"],
};
const BODY_LIMITED = [
  "createInbox",
  "sendMessage",
  "replyToMessage",
  "updateMessage",
  "createWebhook",
  "updateWebhook",
  "createListEntry",
  "createInboxListEntry",
  "createDraft",
  "updateDraft",
  "sendDraft",
  "sendMessageAtSendPath",
  "replyAllMessage",
  "forwardMessage",
  "batchGetMessages",
  "batchUpdateMessages",
  "updateThread",
  "updateInbox",
  "editWebhook",
  "createApiKey",
  "createDomain",
];
/** The operations that answer no body on success. */
const NO_CONTENT = [
  "deleteInbox",
  "deleteWebhook",
  "deleteDraft",
  "deleteListEntry",
  "deleteInboxListEntry",
  "deleteMessage",
  "deleteThread",
  "deleteApiKey",
  // A hosted domain is verified from the start: Verify Domain has nothing to answer but success.
  "verifyDomain",
];
/** The operations that queue work and answer 202 with what they queued. */
const ACCEPTED = ["redeliverWebhookDelivery"];
/** The operations that change something without a request body: everything they need is in the path. */
const NO_BODY = ["redeliverWebhookDelivery", "verifyDomain"];
/** The operations whose success is not JSON but a download, with its media type. */
const DOWNLOADS: Record<string, string> = {
  getAttachment: "application/octet-stream",
  getRawMessage: "message/rfc822",
  getThreadAttachment: "application/octet-stream",
  getDownload: "application/octet-stream",
};
/**
 * Successes that are text rather than JSON or bytes, with their media type: a domain's zone file is meant to be
 * imported into a DNS provider as it is.
 */
const TEXT_ANSWERS: Record<string, string> = { getDomainZoneFile: "text/plain" };
/** Downloads that also answer AgentMail's JSON (a signed link) to a request that asks for JSON. */
const JSON_ALTERNATIVE = ["getAttachment", "getRawMessage", "getThreadAttachment"];
/** The operations anyone may call, without a key: a signed download link is its own permission. */
const PUBLIC = ["getDownload"];

/** The statuses an operation must answer besides its success. */
function expectedErrors(path: string, operationId: string): string[] {
  // A public operation takes no key, so it cannot be a 401.
  const statuses = PUBLIC.includes(operationId) ? ["400", "429", "500"] : ["400", "401", "429", "500"];
  if (NO_INPUT.includes(operationId)) {
    statuses.splice(statuses.indexOf("400"), 1);
  }
  if (path.includes("{") && !NOTHING_TO_FIND.includes(operationId)) {
    statuses.push("404");
  }
  if (operationId in CONFLICTS) {
    statuses.push("409");
  }
  if (BODY_LIMITED.includes(operationId)) {
    statuses.push("413");
  }
  return statuses.sort();
}

describe("the bundle", () => {
  it("has the seed's 13 operations and the reviewed additions that extend it (added-operations.ts)", () => {
    expect(operations).toHaveLength(SEED_OPERATION_COUNT + ADDED.length);
  });

  it("documents the headers every response carries once, in the overview's Response headers section", () => {
    const overview = str(spec, "info", "description");
    const section = overview.slice(overview.indexOf("## Response headers"));
    expect(section.length).toBeLessThan(overview.length);
    for (const header of EVERY_RESPONSE_HEADERS) {
      expect(section).toContain(`| \`${header}\` |`);
    }
    expect(Object.keys(obj(spec, "components", "headers")).sort()).toEqual(["RetryAfter", "XShouldRetry"]);
  });

  it("explains every error code once, in the overview's Errors section, with its status and type", () => {
    const overview = str(spec, "info", "description");
    const section = overview.slice(overview.indexOf("## Errors"));
    for (const code of arr(spec, "components", "schemas", "ErrorDetails", "properties", "code", "examples").map(
      String,
    )) {
      expect(section).toMatch(new RegExp(`\\| \\d{3} \`[a-z_]+\` \\| \`${code}\` \\|`));
    }
  });

  it("documents the 405 with Allow for a method a path does not have, and that unknown query parameters are ignored", () => {
    const overview = str(spec, "info", "description");
    expect(overview).toMatch(
      /answers 405\s+`validation_error` \(`details.code` `METHOD_NOT_ALLOWED`\) with an `Allow` header/,
    );
    expect(overview).toMatch(/Query parameters that an operation does not\s+document are ignored/);
  });

  it("gives every named schema a description", () => {
    for (const [name, schema] of Object.entries(obj(spec, "components", "schemas"))) {
      expect(typeof obj(schema).description, name).toBe("string");
    }
  });
});

describe.each(
  operations.map(({ path, method, operation }) => ({ id: String(operation.operationId), path, method, operation })),
)("$id ($method $path)", ({ id, path, method, operation }) => {
  const responses = obj(operation, "responses");

  it("has a camelCase operationId, one defined tag, a summary and a description", () => {
    expect(id).toMatch(/^[a-z][A-Za-z]+$/);
    expect(operation.tags).toHaveLength(1);
    expect(tagNames).toContain(str(operation, "tags", 0));
    expect(str(operation, "summary").length).toBeGreaterThan(0);
    expect(str(operation, "description").length).toBeGreaterThan(80);
  });

  it("requires the bearer API key", () => {
    expect(operation.security).toEqual(PUBLIC.includes(id) ? [] : [{ bearerAuth: [] }]);
  });

  it("has a named request example when it takes a body", () => {
    if (method === "get" || method === "delete" || NO_BODY.includes(id)) {
      expect(operation.requestBody).toBeUndefined();
      return;
    }
    const examples = obj(operation, "requestBody", "content", "application/json", "examples");
    expect(Object.keys(examples).length).toBeGreaterThan(0);
    for (const example of Object.values(examples)) {
      expect(obj(example).value).toBeDefined();
    }
  });

  it("takes no input at all when it is listed as answering no 400", () => {
    if (!NO_INPUT.includes(id)) {
      return;
    }
    expect(path).not.toContain("{");
    expect(operation.parameters ?? []).toEqual([]);
    expect(operation.requestBody).toBeUndefined();
  });

  it("answers exactly one success status", () => {
    const successes = Object.keys(responses).filter((status) => status.startsWith("2"));
    expect(successes).toEqual([NO_CONTENT.includes(id) ? "204" : ACCEPTED.includes(id) ? "202" : "200"]);
  });

  it("documents its error statuses: 400, 401, 429, 500, and 404, 409 or 413 where they apply", () => {
    const errors = Object.keys(responses).filter((status) => !status.startsWith("2"));
    expect(errors.sort()).toEqual(expectedErrors(path, id));
  });

  it("answers every error with the ErrorResponse schema and a named example", () => {
    for (const [status, response] of Object.entries(responses)) {
      if (status.startsWith("2")) {
        continue;
      }
      expect(refOf(response), status).toMatch(/^#\/components\/responses\/[A-Z][A-Za-z]+$/);
      const media = obj(response, "content", "application/json");
      expect(refOf(media.schema), status).toBe(ERROR_RESPONSE);
      expect(Object.keys(obj(media, "examples")).length, status).toBeGreaterThan(0);
    }
  });

  it("has a 429 whose headers include Retry-After", () => {
    expect(Object.keys(obj(responses, "429", "headers"))).toContain("Retry-After");
  });

  it("declares only the headers particular to a status, never those every response carries", () => {
    for (const [status, response] of Object.entries(responses)) {
      const headers = obj(response).headers;
      const names = isObject(headers) ? Object.keys(headers) : [];
      const particular = status.startsWith("2") ? SUCCESS_HEADERS[id] : STATUS_HEADERS[status];
      expect(names, status).toEqual(particular ?? []);
    }
  });

  it("describes under 409 only the conflict this operation can have", () => {
    const own = CONFLICTS[id];
    if (own === undefined) {
      return;
    }
    const codes = Object.values(obj(responses, "409", "content", "application/json", "examples")).map((example) =>
      str(example, "value", "error", "details", "code"),
    );
    expect(codes).toEqual([own]);
    const text = str(obj(responses, "409"), "description");
    for (const other of Object.values(CONFLICTS)) {
      expect(text.includes(other), other).toBe(other === own);
    }
  });

  it("answers JSON, or on a download's success binary (and a JSON link where documented), or the zone file's text, each with a named example", () => {
    for (const [status, response] of Object.entries(responses)) {
      const content = obj(response).content;
      if (content === undefined) {
        expect(status).toBe("204");
        expect(NO_CONTENT, status).toContain(id);
        continue;
      }
      const text = status.startsWith("2") ? TEXT_ANSWERS[id] : undefined;
      if (text !== undefined) {
        expect(Object.keys(obj(content)), status).toEqual([text]);
        expect(obj(content, text, "schema"), status).toMatchObject({ type: "string" });
        expect(Object.keys(obj(content, text, "examples")).length, status).toBeGreaterThan(0);
        continue;
      }
      const download = status.startsWith("2") ? DOWNLOADS[id] : undefined;
      const alternative = download !== undefined && JSON_ALTERNATIVE.includes(id) ? ["application/json"] : [];
      expect(Object.keys(obj(content)), status).toEqual([download ?? "application/json", ...alternative]);
      const media = obj(content, download ?? "application/json");
      if (download !== undefined) {
        expect(obj(media, "schema"), status).toMatchObject({ type: "string", format: "binary" });
      }
      const examples: JsonObject = obj(media, "examples");
      expect(Object.keys(examples).length, status).toBeGreaterThan(0);
      for (const example of Object.values(examples)) {
        expect(obj(example).value, status).toBeDefined();
      }
    }
  });
});
