// The lint rules (`specs/redocly.yaml`) pass the test-control spec as written, source and bundle, and fail it when it
// is broken on purpose; its own rules (the `/_test` prefix, its verbs) hold in place of the other APIs'.

import { specCopies } from "@pigeonhole/spec-testing/lint";
import { describe, expect, it } from "vitest";

const copy = specCopies("test-control");

// Each test runs the Redocly CLI, which takes seconds, and more while the rest of the build shares the machine.
describe("redocly lint of the test-control spec", { timeout: 120_000 }, () => {
  it("passes the spec as written, source and bundle, with no errors and no warnings", async () => {
    const result = await (await copy()).lint();
    expect(result.output).toContain("Your API description is valid");
    expect(result.output).toContain("using lint rules for api 'test-control-bundle@v0'");
    expect(result.output).not.toMatch(/warning/i);
    expect(result.exitCode).toBe(0);
  });

  it("fails an operation without an operationId", async () => {
    const spec = await copy();
    await spec.edit("paths/faults_{fault_id}.yaml", (text) => text.replace("  operationId: getFault\n", ""));
    const result = await spec.lint();
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("operation-operationId");
  });

  it("fails an example that matches none of a fault's kinds", async () => {
    const spec = await copy();
    await spec.edit("components/examples/RetryAfterFault.yaml", (text) => text.replace("status: 429", "status: 200"));
    const result = await spec.lint();
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("no-invalid-media-type-examples");
  });

  it("fails a component that nothing uses", async () => {
    const spec = await copy();
    await spec.edit("openapi.yaml", (text) =>
      text.replace(
        "components:\n",
        "components:\n  schemas:\n    Orphan:\n      type: object\n      description: Used by nothing.\n",
      ),
    );
    const result = await spec.lint();
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("no-unused-components");
  });

  it("fails a path outside /_test", async () => {
    const spec = await copy();
    await spec.edit("openapi.yaml", (text) => text.replace("  /_test/reset:\n", "  /v0/reset:\n"));
    const result = await spec.lint();
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("rule/test-control-path-prefix");
  });

  it("fails a segment after /_test that is not kebab-case", async () => {
    const spec = await copy();
    await spec.edit("openapi.yaml", (text) =>
      text.replace("/_test/wait/webhook-delivery:", "/_test/wait/webhook_delivery:"),
    );
    const result = await spec.lint();
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("rule/test-control-path-prefix");
  });

  it("fails a PUT operationId that does not start with set", async () => {
    const spec = await copy();
    await spec.edit("paths/clock.yaml", (text) => text.replace("operationId: setClock", "operationId: updateClock"));
    const result = await spec.lint();
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("A PUT operationId starts with set.");
  });

  it("fails a GET operationId that does not start with get, list, wait or extract", async () => {
    const spec = await copy();
    await spec.edit("paths/wait_message.yaml", (text) =>
      text.replace("operationId: waitForMessage", "operationId: pollForMessage"),
    );
    const result = await spec.lint();
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("rule/get-verbs");
  });
});
