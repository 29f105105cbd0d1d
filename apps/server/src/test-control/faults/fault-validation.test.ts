import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testControlOf } from "../../../test/support/test-control-requests.ts";
import type { TestServer } from "../../../test/support/test-server.ts";
import { startTestServer } from "../../../test/support/test-server.ts";

// A fault's target and action are each one of several kinds, told apart by `target` and `type`: a refused fault is
// explained by the kind it names, or by the kinds there are when it names none.

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.server.close());

const match = { method: "POST", path: "/v0/inboxes/*/messages" };

/** The `details` and `message` of Create Fault's answer to `fault`, which must be a 400. */
async function refusal(fault: unknown) {
  const answer = await testControlOf(t.server).call<{ error: { message: string; details: unknown } }>(
    "POST",
    "/faults",
    fault,
  );
  expect(answer.status).toBe(400);
  return { message: answer.body.error.message, details: answer.body.error.details };
}

describe("Create Fault refuses", () => {
  it("an action of an unknown type, naming the types there are", async () => {
    expect(await refusal({ target: "request", match, action: { type: "explode" } })).toEqual({
      message: "action.type: must be one of respond, drop, delay.",
      details: { field: "action.type", code: "INVALID_VALUE" },
    });
    expect(await refusal({ target: "mail", match: { to: "a@pigeonhole.test" }, action: { type: "drop" } })).toEqual({
      message: "action.type: must be one of bounce, delay.",
      details: { field: "action.type", code: "INVALID_VALUE" },
    });
  });

  it("an action without a type, and a fault with an unknown target or none", async () => {
    expect(await refusal({ target: "request", match, action: { status: 503 } })).toEqual({
      message: "action.type: is required, one of respond, drop, delay.",
      details: { field: "action.type", code: "REQUIRED" },
    });
    expect(await refusal({ target: "database", match, action: { type: "respond", status: 503 } })).toEqual({
      message: "target: must be one of request, webhook, mail.",
      details: { field: "target", code: "INVALID_VALUE" },
    });
    expect(await refusal({ match, action: { type: "respond", status: 503 } })).toEqual({
      message: "target: is required, one of request, webhook, mail.",
      details: { field: "target", code: "REQUIRED" },
    });
  });

  it("an action of a known type by what that type lacks, not by another type's fields", async () => {
    expect(await refusal({ target: "request", match, action: { type: "drop" } })).toEqual({
      message: "action.when: is required.",
      details: { field: "action.when", code: "REQUIRED" },
    });
    expect(await refusal({ target: "request", match, action: { type: "respond", status: 200 } })).toEqual({
      message: "action.status: must be an integer from 400 to 599.",
      details: { field: "action.status", code: "INVALID_VALUE" },
    });
  });
});
