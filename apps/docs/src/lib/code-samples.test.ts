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

function file(operationId: string, language: ExampleFile["language"]): ExampleFile {
  const extension = language === "curl" ? "sh" : "ts";
  return { operationId, language, path: `/x/${operationId}.${extension}`, source: `# ${operationId} ${language}\n\n` };
}

const complete = new Map<string, ExampleFile[]>([
  ["listInboxes", [file("listInboxes", "curl"), file("listInboxes", "typescript")]],
  ["createInbox", [file("createInbox", "typescript"), file("createInbox", "curl")]],
  ["onMessageReceived", [file("onMessageReceived", "typescript")]],
]);

describe("attachCodeSamples", () => {
  it("gives every operation its TypeScript then its curl example, and a webhook event its TypeScript one", () => {
    const result = attachCodeSamples(document, complete);
    expect(
      listOperations(result).map(({ operationId, operation }) => [operationId, operation["x-codeSamples"]]),
    ).toEqual([
      [
        "listInboxes",
        [
          { lang: "ts", label: "TypeScript", source: "# listInboxes typescript" },
          { lang: "sh", label: "curl", source: "# listInboxes curl" },
        ],
      ],
      [
        "createInbox",
        [
          { lang: "ts", label: "TypeScript", source: "# createInbox typescript" },
          { lang: "sh", label: "curl", source: "# createInbox curl" },
        ],
      ],
      ["onMessageReceived", [{ lang: "ts", label: "TypeScript", source: "# onMessageReceived typescript" }]],
    ]);
  });

  it("leaves the bundle itself untouched", () => {
    const before = structuredClone(document);
    attachCodeSamples(document, complete);
    expect(document).toEqual(before);
  });

  it("refuses an operation without an example in a language it needs", () => {
    const noCurl = new Map(complete);
    noCurl.set("createInbox", [file("createInbox", "typescript")]);
    expect(() => attachCodeSamples(document, noCurl)).toThrow("No curl example for operation createInbox");
    const noTypeScript = new Map(complete);
    noTypeScript.delete("onMessageReceived");
    expect(() => attachCodeSamples(document, noTypeScript)).toThrow(
      "No TypeScript example for operation onMessageReceived",
    );
  });
});
