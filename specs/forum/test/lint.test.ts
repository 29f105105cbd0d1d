// The lint rules (`specs/redocly.yaml`) pass the forum spec as written and fail it when it is broken on purpose.

import { specCopies } from "@pigeonhole/spec-testing/lint";
import { describe, expect, it } from "vitest";

const copy = specCopies("forum");

// Each test runs the Redocly CLI, which takes seconds, and more while the rest of the build shares the machine.
describe("redocly lint of the forum spec", { timeout: 120_000 }, () => {
  it("passes the spec as written with no errors and no warnings", async () => {
    const result = await (await copy()).lint();
    expect(result.output).toContain("Your API description is valid");
    expect(result.output).not.toMatch(/warning/i);
    expect(result.exitCode).toBe(0);
  });

  it("fails a GET whose operationId does not start with get or list", async () => {
    const spec = await copy();
    await spec.edit("paths/posts_{post_id}.yaml", (text) =>
      text.replace("operationId: getPost", "operationId: fetchPost"),
    );
    const result = await spec.lint();
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("rule/get-verbs");
  });

  it("fails a schema without a description", async () => {
    const spec = await copy();
    await spec.edit("components/schemas/VoteRequest.yaml", (text) =>
      text.replace(/^description:.*\n(?: {2}.*\n)*/m, ""),
    );
    const result = await spec.lint();
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("rule/schema-described");
  });

  it("fails a path outside /api/v1", async () => {
    const spec = await copy();
    await spec.edit("openapi.yaml", (text) => text.replace("  /api/v1/posts:\n", "  /api/v2/posts:\n"));
    const result = await spec.lint();
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("rule/forum-path-prefix");
  });
});
