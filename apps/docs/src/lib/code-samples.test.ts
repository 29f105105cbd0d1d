import { describe, expect, it } from "vitest";
import { attachCodeSamples } from "./code-samples.ts";
import type { ExampleFile } from "./examples.ts";
import { listOperations, type OpenAPIDocument } from "./openapi.ts";

const document: OpenAPIDocument = {
  info: { title: "Test", version: "1" },
  paths: {
    "/v0/inboxes": {
      summary: "not an operation",
      get: { operationId: "listInboxes" },
      post: { operationId: "createInbox" },
    },
  },
  webhooks: { "message.received": { post: { operationId: "onMessageReceived" } } },
};

function examplesFor(...ids: string[]): Map<string, ExampleFile[]> {
  return new Map(ids.map((id) => [id, [{ operationId: id, path: `/x/${id}.ts`, source: `// ${id}\n\n` }]]));
}

describe("attachCodeSamples", () => {
  it("gives every operation and webhook its example as its only code sample", () => {
    const result = attachCodeSamples(document, examplesFor("listInboxes", "createInbox", "onMessageReceived"), "TS");
    expect(
      listOperations(result).map(({ operationId, operation }) => [operationId, operation["x-codeSamples"]]),
    ).toEqual([
      ["listInboxes", [{ lang: "ts", label: "TS", source: "// listInboxes" }]],
      ["createInbox", [{ lang: "ts", label: "TS", source: "// createInbox" }]],
      ["onMessageReceived", [{ lang: "ts", label: "TS", source: "// onMessageReceived" }]],
    ]);
  });

  it("leaves the bundle itself untouched", () => {
    const before = structuredClone(document);
    attachCodeSamples(document, examplesFor("listInboxes", "createInbox", "onMessageReceived"), "TS");
    expect(document).toEqual(before);
  });

  it("refuses an operation without an example", () => {
    expect(() => attachCodeSamples(document, examplesFor("listInboxes", "createInbox"), "TS")).toThrow(
      "No example for operation onMessageReceived",
    );
  });
});
