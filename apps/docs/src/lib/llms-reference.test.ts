import { describe, expect, it } from "vitest";
import { describeSchema, operationRoute } from "./llms-reference.ts";

describe("the reference as text", () => {
  it.each([
    [{ $ref: "#/components/schemas/SendMessageRequest" }, "SendMessageRequest"],
    [{ type: "array", items: { $ref: "#/components/schemas/Inbox" } }, "array of Inbox"],
    [{ type: ["string", "null"] }, "string | null"],
    [{ oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] }, "string | array of string"],
    [{ properties: {} }, "object"],
    [undefined, "any"],
  ])("describes %j as %s", (schema, expected) => {
    expect(describeSchema(schema)).toBe(expected);
  });

  it("gives operations and webhook events the routes of their pages", () => {
    expect(operationRoute({ base: "reference/inbox" }, "path", "sendMessage")).toBe(
      "/reference/inbox/operations/sendmessage/",
    );
    expect(operationRoute({ base: "reference/inbox" }, "webhook", "onMessageReceived")).toBe(
      "/reference/inbox/webhooks/onmessagereceived/",
    );
  });
});
