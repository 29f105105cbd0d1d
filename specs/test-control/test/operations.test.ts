// Checks over every operation of the bundle (`dist/openapi.json`; run `pnpm bundle` first): each is documented,
// secured by the test-control key, answers one success, and lists every error it can answer with the inbox's error
// envelope and examples whose codes the overview's Errors section explains.

import { isObject, type JsonObject, loadBundle, refOf } from "@pigeonhole/spec-testing/bundle";
import { describe, expect, it } from "vitest";

const { obj, operationsOf, response, spec, str } = loadBundle(new URL("../dist/openapi.json", import.meta.url));

const operations = operationsOf(obj(spec, "paths"));
const tagNames = (Array.isArray(spec.tags) ? spec.tags : []).map((tag) => str(tag, "name"));
const ERROR_RESPONSE = "#/components/schemas/ErrorResponse";
/** The success status of each operation that does not answer 200. */
const SUCCESS: Record<string, string> = { createFault: "201", deleteFault: "204", deleteFaults: "204", reset: "204" };
/** What each operation's 404 means, by `details.code`. */
const NOT_FOUND: Record<string, string> = {
  getFault: "NOT_FOUND",
  deleteFault: "NOT_FOUND",
  extractFromMessage: "NOT_FOUND",
  waitForMessage: "WAIT_TIMED_OUT",
  waitForWebhookDelivery: "WAIT_TIMED_OUT",
};
const TYPE_OF_STATUS: Record<string, string> = {
  "400": "validation_error",
  "401": "authentication_error",
  "404": "not_found_error",
  "500": "internal_error",
};

/** The statuses an operation must answer besides its success: 400 only where there is input to refuse. */
function expectedErrors(id: string, takesInput: boolean): string[] {
  const statuses = ["401", "500"];
  if (takesInput) {
    statuses.push("400");
  }
  if (id in NOT_FOUND) {
    statuses.push("404");
  }
  return statuses.sort();
}

/** The rows of the overview's Errors table: `status type code`. */
function errorTable(): string[] {
  const overview = str(spec, "info", "description");
  const section = overview.slice(overview.indexOf("## Errors"));
  return [...section.matchAll(/^\| (\d{3}) `([a-z_]+)` \| `([A-Z_]+)` \|/gm)].map(([, s, t, c]) => `${s} ${t} ${c}`);
}

function errorExamples(body: JsonObject): JsonObject[] {
  return Object.values(obj(body, "content", "application/json", "examples")).map((example) =>
    obj(example, "value", "error"),
  );
}

describe("the bundle", () => {
  it("has the twelve operations of test control", () => {
    expect(operations.map(({ operation }) => operation.operationId).sort()).toEqual(
      [
        "getClock",
        "setClock",
        "advanceClock",
        "createFault",
        "listFaults",
        "getFault",
        "deleteFault",
        "deleteFaults",
        "waitForMessage",
        "waitForWebhookDelivery",
        "extractFromMessage",
        "reset",
      ].sort(),
    );
  });

  it("requires the test-control key, a bearer token, on every path", () => {
    expect(spec.security).toEqual([{ testControlKey: [] }]);
    expect(obj(spec, "components", "securitySchemes", "testControlKey")).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
  });

  it("explains in the overview every code the schema lists, and no other", () => {
    const codes = errorTable().map((row) => row.split(" ")[2]);
    const listed = obj(spec, "components", "schemas", "ErrorDetails", "properties", "code").examples;
    expect([...new Set(codes)].sort()).toEqual([...(Array.isArray(listed) ? listed : [])].map(String).sort());
  });

  it("gives every named schema a description", () => {
    for (const [name, schema] of Object.entries(obj(spec, "components", "schemas"))) {
      expect(typeof obj(schema).description, name).toBe("string");
    }
  });
});

describe.each(
  operations.map(({ path, method, operation, parameters }) => ({
    id: String(operation.operationId),
    path,
    method,
    operation,
    parameters,
  })),
)("$id ($method $path)", ({ id, method, operation, parameters }) => {
  const responses = obj(operation, "responses");
  const takesInput = operation.requestBody !== undefined || parameters.some((p) => p.in === "query");

  it("has a camelCase operationId, one defined tag, a summary and a description", () => {
    expect(id).toMatch(/^[a-z][A-Za-z]+$/);
    expect(operation.tags).toHaveLength(1);
    expect(tagNames).toContain(str(operation, "tags", 0));
    expect(str(operation, "summary").length).toBeGreaterThan(0);
    expect(str(operation, "description").length).toBeGreaterThan(80);
  });

  it("requires the test-control key", () => {
    expect(operation.security).toEqual([{ testControlKey: [] }]);
  });

  it("has a named request example when it takes a body", () => {
    if (method === "get" || method === "delete") {
      expect(operation.requestBody).toBeUndefined();
      return;
    }
    const examples = obj(operation, "requestBody", "content", "application/json", "examples");
    expect(Object.keys(examples).length).toBeGreaterThan(0);
    for (const example of Object.values(examples)) {
      expect(obj(example).value).toBeDefined();
    }
  });

  it("answers exactly one success status, with a named JSON example unless it is a 204", () => {
    const successes = Object.keys(responses).filter((status) => status.startsWith("2"));
    expect(successes).toEqual([SUCCESS[id] ?? "200"]);
    const success = obj(responses, successes[0] ?? "");
    if (successes[0] === "204") {
      expect(success.content).toBeUndefined();
      return;
    }
    expect(Object.keys(obj(success, "content"))).toEqual(["application/json"]);
    expect(Object.keys(obj(success, "content", "application/json", "examples")).length).toBeGreaterThan(0);
  });

  it("documents its error statuses: 401 and 500, 400 where it takes input, 404 where something may be missing", () => {
    const errors = Object.keys(responses).filter((status) => !status.startsWith("2"));
    expect(errors.sort()).toEqual(expectedErrors(id, takesInput));
  });

  it("answers every error with a shared response, the ErrorResponse schema and named examples of its status", () => {
    const table = errorTable();
    for (const [status, answer] of Object.entries(responses)) {
      if (status.startsWith("2")) {
        continue;
      }
      expect(refOf(answer), status).toMatch(/^#\/components\/responses\/[A-Z][A-Za-z]+$/);
      expect(refOf(obj(answer, "content", "application/json").schema), status).toBe(ERROR_RESPONSE);
      expect(isObject(obj(answer).headers), status).toBe(false);
      const examples = errorExamples(obj(answer));
      expect(examples.length, status).toBeGreaterThan(0);
      for (const error of examples) {
        expect(error.type, status).toBe(TYPE_OF_STATUS[status]);
        expect(table, status).toContain(`${status} ${str(error, "type")} ${str(error, "details", "code")}`);
      }
    }
  });

  it("says under 404 what is missing: the fault, the message, or a match in time", () => {
    const code = NOT_FOUND[id];
    if (code === undefined) {
      return;
    }
    const codes = errorExamples(obj(responses, "404")).map((error) => str(error, "details", "code"));
    expect(codes).toEqual([code]);
    expect(str(obj(responses, "404"), "description")).toContain(`\`${code}\``);
  });
});

describe("Set Clock", () => {
  it("documents CLOCK_BACKWARDS on `now` under its 400", () => {
    const errors = errorExamples(response("setClock", "400"));
    expect(errors.map((error) => obj(error, "details"))).toContainEqual({ field: "now", code: "CLOCK_BACKWARDS" });
    expect(str(response("setClock", "400"), "description")).toContain("`CLOCK_BACKWARDS`");
  });
});
