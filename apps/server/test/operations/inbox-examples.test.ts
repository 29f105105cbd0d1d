import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenApiDocument } from "../../src/spec/spec-bundle.ts";
import { loadSpecBundle } from "../../src/spec/spec-bundle.ts";
import type { TestServer } from "../support/test-server.ts";
import { expectData, startTestServer } from "../support/test-server.ts";

// The spec's examples of an inbox show the fields a real answer has: a reader copying one gets what the server sends.

type JsonObject = Record<string, unknown>;

const document: OpenApiDocument = loadSpecBundle("inbox");

/** What a `#/...` reference of the bundle names. */
function resolve(value: unknown): unknown {
  const reference = (value as { $ref?: unknown } | null)?.$ref;
  if (typeof reference !== "string") {
    return value;
  }
  return reference
    .replace(/^#\//, "")
    .split("/")
    .reduce<unknown>((node, part) => (node as JsonObject | undefined)?.[part], document);
}

/** The inbox records in the 200 examples of an operation: the example itself, or the items of its `inboxes`. */
function exampleInboxes(path: string, method: string): JsonObject[] {
  const operation = (document.paths as JsonObject)[path] as JsonObject;
  const answer = resolve(((operation[method] as JsonObject).responses as JsonObject)["200"]) as JsonObject;
  const examples = ((answer.content as JsonObject)["application/json"] as JsonObject).examples as JsonObject;
  return Object.values(examples).flatMap((example) => {
    const value = (resolve(example) as JsonObject).value as JsonObject;
    return Array.isArray(value.inboxes) ? (value.inboxes as JsonObject[]) : [value];
  });
}

const fieldsOf = (record: object) => Object.keys(record).sort();

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.server.close());

describe("the spec's inbox examples", () => {
  it("carry the fields of the inboxes the server answers, metadata included", async () => {
    const created = expectData(
      await t.inbox.POST("/v0/inboxes", { body: { username: "support", display_name: "Pigeonhole Support" } }),
    );
    const params = { path: { inbox_id: created.inbox_id } };
    const read = expectData(await t.inbox.GET("/v0/inboxes/{inbox_id}", { params }));
    const listed = expectData(await t.inbox.GET("/v0/inboxes")).inboxes;
    const found = expectData(await t.inbox.GET("/v0/inboxes/search", { params: { query: { q: "support" } } })).inboxes;
    const updated = expectData(
      await t.inbox.PATCH("/v0/inboxes/{inbox_id}", { params, body: { metadata: { tier: 3 } } }),
    );
    const real = fieldsOf(created);
    expect(real).toContain("metadata");
    for (const answer of [read, ...listed, ...found, updated]) {
      expect(fieldsOf(answer)).toEqual(real);
    }
    for (const [path, method] of [
      ["/v0/inboxes", "post"],
      ["/v0/inboxes", "get"],
      ["/v0/inboxes/search", "get"],
      ["/v0/inboxes/{inbox_id}", "get"],
      ["/v0/inboxes/{inbox_id}", "patch"],
    ] as const) {
      const examples = exampleInboxes(path, method);
      expect(examples.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const example of examples) {
        expect(fieldsOf(example), `${method} ${path}`).toEqual(real);
      }
    }
  });
});
