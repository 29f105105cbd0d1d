import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkCoverage, describeCoverageProblems, type ExampleFile, readExamples } from "./examples.ts";
import { listOperations } from "./openapi.ts";
import { readBundle } from "./prepare-site.ts";
import { REFERENCE_SPECS } from "./reference-specs.ts";

const EXAMPLES = fileURLToPath(new URL("../../examples/", import.meta.url));

function file(operationId: string, extension = ".ts"): ExampleFile {
  const language = extension === ".sh" ? "curl" : "typescript";
  return { operationId, language, path: `/x/${operationId}${extension}`, source: "" };
}

describe("the example files", () => {
  it.each(REFERENCE_SPECS.map((spec) => [spec.api, spec] as const))(
    "give every %s operation a TypeScript and a curl example, every webhook event a TypeScript one, and name nothing else",
    async (api, spec) => {
      const operations = listOperations(await readBundle(spec));
      const examples = await readExamples(join(EXAMPLES, api));
      expect(operations.length).toBeGreaterThan(0);
      expect(checkCoverage(operations, examples)).toEqual({ missing: [], duplicated: [], orphaned: [] });
      for (const { operationId, kind } of operations) {
        const languages = examples.get(operationId)?.map((example) => example.language);
        expect(languages?.sort()).toEqual(kind === "path" ? ["curl", "typescript"] : ["typescript"]);
      }
    },
  );
});

describe("checkCoverage", () => {
  it("reports a missing language, a language twice, a file without an operation and a curl example of an event", () => {
    const examples = new Map([
      ["getInbox", [file("getInbox"), file("getInbox", ".sh")]],
      ["sendMessage", [file("sendMessage"), file("sendMessage", ".mts"), file("sendMessage", ".sh")]],
      ["listInboxes", [file("listInboxes")]],
      ["getMailbox", [file("getMailbox", ".sh")]],
      ["onMessageSent", [file("onMessageSent"), file("onMessageSent", ".sh")]],
    ]);
    const coverage = checkCoverage(
      [
        { operationId: "getInbox", kind: "path" },
        { operationId: "sendMessage", kind: "path" },
        { operationId: "listInboxes", kind: "path" },
        { operationId: "onMessageSent", kind: "webhook" },
      ],
      examples,
    );
    expect(describeCoverageProblems("inbox", coverage)).toEqual([
      "inbox: operation listInboxes has no curl example; add examples/inbox/listInboxes.sh",
      "inbox: operation sendMessage has more than one TypeScript example; keep one",
      "inbox: examples/inbox/getMailbox.sh is the example of no operation of the bundle in its language; rename or remove it",
      "inbox: examples/inbox/onMessageSent.sh is the example of no operation of the bundle in its language; rename or remove it",
    ]);
  });
});

describe("readExamples", () => {
  it("groups the files of a folder by the operationId in their name, each with its language", async () => {
    const dir = await mkdtemp(join(tmpdir(), "pigeonhole-examples-"));
    await writeFile(join(dir, "getPost.ts"), "const a = 1;\n");
    await writeFile(join(dir, "getPost.sh"), "curl b\n");
    await writeFile(join(dir, "votePost.mts"), "const c = 3;\n");
    const examples = await readExamples(dir);
    expect([...examples.keys()]).toEqual(["getPost", "votePost"]);
    expect(examples.get("getPost")?.map((example) => [example.language, example.source])).toEqual([
      ["curl", "curl b\n"],
      ["typescript", "const a = 1;\n"],
    ]);
    expect(examples.get("votePost")?.map((example) => example.language)).toEqual(["typescript"]);
  });

  it("refuses a file in no example language", async () => {
    const dir = await mkdtemp(join(tmpdir(), "pigeonhole-examples-"));
    await writeFile(join(dir, "getPost.py"), "print(1)\n");
    await expect(readExamples(dir)).rejects.toThrow("getPost.py is in no example language (.ts, .mts, .sh)");
  });
});
