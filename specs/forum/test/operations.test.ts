// Every operation of the bundle documents itself and its error responses the same way.

import { isObject, loadBundle } from "@pigeonhole/spec-testing/bundle";
import { describe, expect, it } from "vitest";

const { at, bodySchemaName, exampleValues, obj, operations, refAt, spec } = loadBundle(
  new URL("../dist/openapi.json", import.meta.url),
);

const everyResponseHeaders = ["X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];
const errorStatuses = ["400", "401", "429", "500"];
const sharedErrors: Record<string, string> = {
  "400": "#/components/responses/BadRequest",
  "401": "#/components/responses/Unauthorized",
  "404": "#/components/responses/NotFound",
  "413": "#/components/responses/PayloadTooLarge",
  "429": "#/components/responses/TooManyRequests",
  "500": "#/components/responses/InternalServerError",
};

const all = operations();

describe("the operations of the forum bundle", () => {
  it("has the six operations", () => {
    expect(all).toHaveLength(6);
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
        expect(op.operation.security).toEqual([{ bearerAuth: [] }]);
      });

      it("has exactly one 2xx answer, with a named schema and a named example", () => {
        const success = statuses.filter((status) => status.startsWith("2"));
        expect(success).toHaveLength(1);
        const body = obj(responses, String(success[0]));
        expect(bodySchemaName(body)).toMatch(/^[A-Z][A-Za-z]+Response$/);
        expect(exampleValues(body).length).toBeGreaterThan(0);
      });

      it("has a request example where there is a body", () => {
        const body = op.operation.requestBody;
        if (op.method === "post") {
          expect(isObject(body)).toBe(true);
        }
        if (isObject(body)) {
          expect(body.required).toBe(true);
          expect(bodySchemaName(body)).toMatch(/Request$/);
          expect(exampleValues(body).length).toBeGreaterThan(0);
        } else {
          expect(op.method).toBe("get");
        }
      });

      it("documents 400, 401, 429 and 500", () => {
        for (const status of errorStatuses) {
          expect(statuses).toContain(status);
        }
      });

      const needs404 = op.path.includes("{") || id === "createPost";
      it(needs404 ? "documents 404 (an unknown id)" : "documents no 404 (nothing to look up)", () => {
        expect(statuses.includes("404")).toBe(needs404);
      });

      const needs413 = op.method === "post";
      it(needs413 ? "documents 413 (a body over 1 MiB)" : "documents no 413 (no body)", () => {
        expect(statuses.includes("413")).toBe(needs413);
      });

      it("uses the shared error responses, each with the ErrorResponse schema", () => {
        for (const status of statuses.filter((s) => /^[45]/.test(s))) {
          expect(refAt(responses, status), status).toBe(sharedErrors[status]);
          expect(bodySchemaName(obj(responses, status)), status).toBe("ErrorResponse");
          for (const value of exampleValues(obj(responses, status))) {
            expect(at(value, "success")).toBe(false);
          }
        }
      });

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
