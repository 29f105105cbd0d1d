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
  return { operationId, path: `/x/${operationId}${extension}`, source: "" };
}

describe("the example files", () => {
  it.each(REFERENCE_SPECS.map((spec) => [spec.api, spec] as const))(
    "give every %s operation (webhook events included) exactly one example, and name no other",
    async (api, spec) => {
      const operationIds = listOperations(await readBundle(spec)).map((entry) => entry.operationId);
      const examples = await readExamples(join(EXAMPLES, api));
      expect(operationIds.length).toBeGreaterThan(0);
      expect(checkCoverage(operationIds, examples)).toEqual({ missing: [], duplicated: [], orphaned: [] });
      for (const id of operationIds) {
        expect(examples.get(id)).toHaveLength(1);
      }
    },
  );
});

describe("checkCoverage", () => {
  it("reports an operation without a file, one with two files, and a file without an operation", () => {
    const examples = new Map([
      ["getInbox", [file("getInbox")]],
      ["sendMessage", [file("sendMessage"), file("sendMessage", ".mts")]],
      ["getMailbox", [file("getMailbox")]],
    ]);
    const coverage = checkCoverage(["getInbox", "sendMessage", "listInboxes"], examples);
    expect(coverage).toEqual({ missing: ["listInboxes"], duplicated: ["sendMessage"], orphaned: ["getMailbox"] });
    expect(describeCoverageProblems("inbox", coverage)).toEqual([
      "inbox: operation listInboxes has no example; add examples/inbox/listInboxes.ts",
      "inbox: operation sendMessage has more than one example file; keep one",
      "inbox: examples/inbox/getMailbox names no operation of the bundle; rename or remove it",
    ]);
  });
});

describe("readExamples", () => {
  it("groups the files of a folder by the operationId in their name", async () => {
    const dir = await mkdtemp(join(tmpdir(), "pigeonhole-examples-"));
    await writeFile(join(dir, "getPost.ts"), "const a = 1;\n");
    await writeFile(join(dir, "getPost.mts"), "const b = 2;\n");
    await writeFile(join(dir, "votePost.ts"), "const c = 3;\n");
    const examples = await readExamples(dir);
    expect([...examples.keys()]).toEqual(["getPost", "votePost"]);
    expect(examples.get("getPost")?.map((example) => example.source)).toEqual(["const b = 2;\n", "const a = 1;\n"]);
  });
});
