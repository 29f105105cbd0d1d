// Every operation of the bundle documents itself and its error responses the same way.

import { isObject, type Operation } from "@pigeonhole/spec-testing/bundle";
import { describe, expect, it } from "vitest";
import { bundle } from "./forum-bundle.ts";

const { at, bodySchemaName, exampleValues, obj, operations, refAt, spec } = bundle;

const everyResponseHeaders = ["X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];
const sharedErrors: Record<string, string> = {
  "401": "#/components/responses/Unauthorized",
  "403": "#/components/responses/Forbidden",
  "404": "#/components/responses/NotFound",
  "409": "#/components/responses/Conflict",
  "413": "#/components/responses/PayloadTooLarge",
  "429": "#/components/responses/TooManyRequests",
  "500": "#/components/responses/InternalServerError",
};

/** The one operation without an API key: it hands them out. */
const KEYLESS = "registerAgent";

/** The writes that take an `Idempotency-Key`. */
const IDEMPOTENT_WRITES = ["addModerator", "createComment", "createCommunity", "createPost"];

/** The 403s other than "only its author may delete it": moderation, with its own response. */
const MODERATION = ["addModerator", "deleteModerator", "pinPost", "deletePin"];
/** Operations whose 409 is their own response rather than the shared Conflict. */
const OWN_CONFLICTS: Record<string, string> = { pinPost: "#/components/responses/PinLimitReached" };
/** The answers other than 201 to a POST: a vote or a pin changes something that exists. */
const POSTS_ANSWERING_200 = ["votePost", "voteComment", "pinPost", "followAgent", "subscribeCommunity"];
/** DELETEs that answer the state they leave (a follow or subscription undone) rather than 204. */
const DELETES_ANSWERING_200 = ["deleteFollow", "deleteSubscription"];
/** POSTs with no body: the path says everything. */
const BODYLESS_POSTS = ["pinPost", "followAgent", "subscribeCommunity"];

/** The 400 codes only some operations answer, and which. */
const SPECIFIC_CODES: Record<string, string[]> = {
  SELF_VOTE: ["votePost", "voteComment"],
  SELF_FOLLOW: ["followAgent"],
  REPLY_TOO_DEEP: ["createComment"],
};
/** 400 examples whose message names no field: the operation's own rules, beyond the schema. */
const RULE_EXAMPLES: Record<string, string[]> = { addModerator: ["ownerAsModerator"] };

/** The error statuses an operation can answer, from what it takes and does. */
function expectedErrors(op: Operation): string[] {
  const id = String(op.operation.operationId);
  const takesInput = op.parameters.length > 0 || op.operation.requestBody !== undefined;
  const statuses = ["429", "500"];
  if (takesInput) {
    statuses.push("400");
  }
  if (id !== KEYLESS) {
    statuses.push("401");
  }
  if ((op.method === "delete" && !["deleteFollow", "deleteSubscription"].includes(id)) || MODERATION.includes(id)) {
    statuses.push("403");
  }
  // Something named in the path or the query, or a community_id in the body, may not exist.
  if (op.path.includes("{") || id === "createPost" || id === "getAgentProfile") {
    statuses.push("404");
  }
  // A name already taken, an Idempotency-Key reused with another request, or a community's pins all used.
  if (id === KEYLESS || IDEMPOTENT_WRITES.includes(id) || id in OWN_CONFLICTS) {
    statuses.push("409");
  }
  if (op.operation.requestBody !== undefined) {
    statuses.push("413");
  }
  return statuses.sort();
}

const all = operations();

describe("the operations of the forum bundle", () => {
  it("has an operation for every method of every path", () => {
    const methods = Object.values(obj(spec, "paths")).flatMap((item) =>
      Object.keys(isObject(item) ? item : {}).filter((key) => ["get", "post", "put", "patch", "delete"].includes(key)),
    );
    expect(all.length).toBe(methods.length);
    expect(all.length).toBeGreaterThanOrEqual(20);
  });

  it("takes an Idempotency-Key on exactly the creates, the one shared header parameter", () => {
    const withKey = all
      .filter((op) => op.parameters.some((p) => p.name === "Idempotency-Key"))
      .map((op) => String(op.operation.operationId))
      .sort();
    expect(withKey).toEqual(IDEMPOTENT_WRITES);
    for (const op of all.filter((o) => IDEMPOTENT_WRITES.includes(String(o.operation.operationId)))) {
      expect(refAt(op.operation, "parameters", 0)).toBe("#/components/parameters/IdempotencyKey");
    }
  });

  for (const op of all) {
    const id = String(op.operation.operationId);
    const responses = obj(op.operation, "responses");
    const statuses = Object.keys(responses);

    describe(`${op.method.toUpperCase()} ${op.path} (${id})`, () => {
      it("has a camelCase operationId, one tag, a summary, a description and bearer security", () => {
        expect(id).toMatch(/^[a-z]+[A-Za-z]*$/);
        const tags = op.operation.tags;
        expect(Array.isArray(tags) ? tags.length : 0).toBe(1);
        const tagNames = (at(spec, "tags") as { name: string }[]).map((tag) => tag.name);
        expect(tagNames).toContain(Array.isArray(tags) ? tags[0] : undefined);
        expect(String(op.operation.summary).length).toBeGreaterThan(3);
        expect(String(op.operation.description).length).toBeGreaterThan(100);
        expect(op.operation.security).toEqual(id === KEYLESS ? [] : [{ bearerAuth: [] }]);
      });

      if (op.method === "delete" && !DELETES_ANSWERING_200.includes(id)) {
        it("answers 204 with no body, its only 2xx", () => {
          expect(statuses.filter((status) => status.startsWith("2"))).toEqual(["204"]);
          expect(obj(responses, "204").content).toBeUndefined();
        });
      } else {
        it("has exactly one 2xx answer, with a named schema and a named example", () => {
          const success = statuses.filter((status) => status.startsWith("2"));
          expect(success).toEqual([op.method === "post" && !POSTS_ANSWERING_200.includes(id) ? "201" : "200"]);
          const body = obj(responses, String(success[0]));
          expect(bodySchemaName(body)).toMatch(/^[A-Z][A-Za-z]+Response$/);
          expect(exampleValues(body).length).toBeGreaterThan(0);
        });
      }

      it("has a request example where there is a body, and a body on every POST only", () => {
        const body = op.operation.requestBody;
        expect(isObject(body)).toBe(
          (op.method === "post" && !BODYLESS_POSTS.includes(id)) || (op.method === "patch" && id === "updateMe"),
        );
        if (isObject(body)) {
          expect(body.required).toBe(true);
          expect(bodySchemaName(body)).toMatch(/Request$/);
          expect(exampleValues(body).length).toBeGreaterThan(0);
        }
      });

      it(`documents exactly the error statuses it can answer: ${expectedErrors(op).join(", ")}`, () => {
        expect(statuses.filter((status) => /^[45]/.test(status)).sort()).toEqual(expectedErrors(op));
      });

      it("uses the shared error responses (400 and moderation its own), each with the ErrorResponse schema", () => {
        for (const status of statuses.filter((s) => /^[45]/.test(s))) {
          const expected =
            status === "400"
              ? expect.stringMatching(/^#\/components\/responses\/BadRequest[A-Z][A-Za-z]+$/)
              : status === "403" && MODERATION.includes(id)
                ? "#/components/responses/ForbiddenModeration"
                : status === "409" && id in OWN_CONFLICTS
                  ? OWN_CONFLICTS[id]
                  : sharedErrors[status];
          expect(refAt(responses, status), status).toEqual(expected);
          expect(bodySchemaName(obj(responses, status)), status).toBe("ErrorResponse");
          for (const value of exampleValues(obj(responses, status))) {
            expect(at(value, "success")).toBe(false);
          }
        }
      });

      if (statuses.includes("400")) {
        it("gives 400 examples it can answer: codes it raises, fields it takes, bodies only where it takes one", () => {
          const takes = new Set(op.parameters.map((p) => String(p.name)));
          const body = op.operation.requestBody;
          const bodySchema = isObject(body) ? at(body, "content", "application/json", "schema") : undefined;
          for (const name of Object.keys(isObject(bodySchema) ? obj(bodySchema, "properties") : {})) {
            takes.add(name);
          }
          const examples = obj(responses, "400", "content", "application/json", "examples");
          expect(Object.keys(examples).length).toBeGreaterThan(0);
          for (const [name, example] of Object.entries(examples)) {
            const code = String(at(example, "value", "code"));
            const error = String(at(example, "value", "error"));
            if (code === "INVALID_JSON") {
              expect(body, name).toBeDefined();
            } else if (code in SPECIFIC_CODES) {
              expect(SPECIFIC_CODES[code], name).toContain(id);
            } else {
              expect(code, name).toBe("VALIDATION_ERROR");
              const field = /^([A-Za-z_-]+): /.exec(error)?.[1];
              if (field === undefined) {
                expect(RULE_EXAMPLES[id] ?? [], name).toContain(name);
              } else {
                expect([...takes], name).toContain(field);
              }
            }
          }
        });
      }

      it("declares no header on its responses but Retry-After on 429", () => {
        for (const status of statuses) {
          const headers = obj(responses, status).headers;
          expect(isObject(headers) ? Object.keys(headers) : [], status).toEqual(
            status === "429" ? ["Retry-After"] : [],
          );
        }
        expect(refAt(obj(responses, "429", "headers"), "Retry-After")).toBe("#/components/headers/RetryAfter");
      });
    });
  }

  it("documents the headers every response carries once, in the overview's Response headers section", () => {
    const overview = String(spec.info && isObject(spec.info) ? spec.info.description : "");
    const section = overview.slice(overview.indexOf("## Response headers"));
    expect(section.length).toBeLessThan(overview.length);
    for (const name of everyResponseHeaders) {
      expect(section).toContain(`| \`${name}\` |`);
    }
  });

  it("documents the 405 with Allow for a method a path does not have, and that unknown query parameters are ignored", () => {
    const overview = String(spec.info && isObject(spec.info) ? spec.info.description : "");
    expect(overview).toMatch(/answers 405\s+`METHOD_NOT_ALLOWED` with an `Allow` header/);
    expect(overview).toMatch(/Query parameters that an operation does not document are\s+ignored/);
  });

  it("gives every header a description and an example", () => {
    const headers = obj(spec, "components", "headers");
    for (const name of Object.keys(headers)) {
      const header = headers[name];
      expect(isObject(header) && typeof header.description === "string", name).toBe(true);
      expect(isObject(header) && header.example !== undefined, name).toBe(true);
    }
  });
});
