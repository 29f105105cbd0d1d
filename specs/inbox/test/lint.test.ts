// The lint rules (`specs/redocly.yaml`) pass the inbox spec as written and fail it when it is broken on purpose.

import { specCopies } from "@pigeonhole/spec-testing/lint";
import { describe, expect, it } from "vitest";

const copy = specCopies("inbox");

// Each test runs the Redocly CLI, which takes seconds, and more while the rest of the build shares the machine.
describe("redocly lint of the inbox spec", { timeout: 120_000 }, () => {
  it("passes the spec as written with no errors and no warnings", async () => {
    const result = await (await copy()).lint();
    expect(result.output).toContain("Your API description is valid");
    expect(result.output).not.toMatch(/warning/i);
    expect(result.exitCode).toBe(0);
  });

  it("fails an operation without an operationId", async () => {
    const spec = await copy();
    await spec.edit("paths/inboxes_{inbox_id}.yaml", (text) => text.replace("  operationId: getInbox\n", ""));
    const result = await spec.lint();
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("operation-operationId");
  });

  it("fails an operationId that is not camelCase", async () => {
    const spec = await copy();
    await spec.edit("paths/inboxes_{inbox_id}.yaml", (text) => text.replace("getInbox", "get_inbox"));
    const result = await spec.lint();
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("rule/operation-id-camel-case");
  });

  it("fails an example that does not match its schema", async () => {
    const spec = await copy();
    await spec.edit("components/examples/SupportInbox.yaml", (text) =>
      text.replace("display_name: Pigeonhole Support", "display_name: 42"),
    );
    const result = await spec.lint();
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("no-invalid-media-type-examples");
  });

  it("fails a component that nothing uses", async () => {
    const spec = await copy();
    await spec.edit("openapi.yaml", (text) =>
      text.replace(
        "  schemas:\n",
        "  schemas:\n    Orphan:\n      type: object\n      description: Used by nothing.\n",
      ),
    );
    const result = await spec.lint();
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("no-unused-components");
  });

  it("fails a path outside /v0", async () => {
    const spec = await copy();
    await spec.edit("openapi.yaml", (text) => text.replace("  /v0/webhooks:\n", "  /v1/webhooks:\n"));
    const result = await spec.lint();
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("rule/inbox-path-prefix");
  });
});
