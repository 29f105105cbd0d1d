import { describe, expect, it } from "vitest";
import { snakeCase, ToolTableError, toolsOf } from "./tool-table.ts";

const errorResponse = { "400": { description: "Bad request." } };

/** A one-operation document; `body` is the request body's schema. */
function document(operation: Record<string, unknown>, schemas: Record<string, unknown> = {}) {
  return {
    paths: {
      "/v0/boxes/{box_id}/notes": {
        parameters: [
          { name: "box_id", in: "path", required: true, description: "The box.", schema: { type: "string" } },
        ],
        post: {
          operationId: "createNote",
          summary: "Create a note",
          description: "Creates a note in the box.",
          responses: {
            "201": {
              description: "Created.",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Note" } } },
            },
            ...errorResponse,
          },
          ...operation,
        },
      },
    },
    components: {
      schemas: {
        Note: {
          type: "object",
          properties: { id: { type: "string", examples: ["n1"] }, examples: { type: "string" } },
          examples: [{ id: "n1" }],
        },
        ...schemas,
      },
    },
  };
}

const body = (schema: unknown) => ({ requestBody: { required: true, content: { "application/json": { schema } } } });

describe("the tool table", () => {
  it("names tools after the service and the operationId in snake case", () => {
    expect(snakeCase("sendMessage")).toBe("send_message");
    expect(snakeCase("getMe")).toBe("get_me");
    expect(snakeCase("listWebhookDeliveries")).toBe("list_webhook_deliveries");
  });

  it("takes only operations that opt in with x-mcp", () => {
    expect(toolsOf("inbox", document({}))).toEqual([]);
    expect(toolsOf("inbox", document({ "x-mcp": false }))).toEqual([]);
    expect(toolsOf("inbox", document({ "x-mcp": true })).map((tool) => tool.name)).toEqual(["inbox_create_note"]);
  });

  it("describes a tool with the extension's text for a model, else the operation's summary and description", () => {
    const [plain] = toolsOf("inbox", document({ "x-mcp": true }));
    expect(plain?.description).toBe("Create a note.\n\nCreates a note in the box.");
    const [written] = toolsOf("inbox", document({ "x-mcp": { description: "Writes a note. " } }));
    expect(written?.description).toBe("Writes a note.");
  });

  it("merges path, query and body into one object schema, references resolved and examples left out", () => {
    const [tool] = toolsOf(
      "inbox",
      document(
        {
          "x-mcp": true,
          parameters: [{ name: "draft", in: "query", description: "Keep it a draft.", schema: { type: "boolean" } }],
          ...body({ $ref: "#/components/schemas/NewNote" }),
        },
        {
          NewNote: {
            type: "object",
            required: ["text"],
            properties: { text: { type: "string", examples: ["hi"] }, pinned: { type: "boolean" } },
          },
        },
      ),
    );
    expect(tool).toMatchObject({
      pathParameters: ["box_id"],
      queryParameters: ["draft"],
      bodyProperties: ["text", "pinned"],
      inputSchema: {
        type: "object",
        additionalProperties: false,
        required: ["box_id", "text"],
        properties: {
          box_id: { type: "string", description: "The box." },
          draft: { type: "boolean", description: "Keep it a draft." },
          text: { type: "string" },
          pinned: { type: "boolean" },
        },
      },
      // A property named `examples` stays; the keyword goes.
      outputSchema: { type: "object", properties: { id: { type: "string" }, examples: { type: "string" } } },
    });
  });

  it("refuses a body property named like a parameter, since a tool's arguments are one object", () => {
    const clash = document({ "x-mcp": true, ...body({ type: "object", properties: { box_id: { type: "string" } } }) });
    expect(() => toolsOf("inbox", clash)).toThrow(ToolTableError);
    expect(() => toolsOf("inbox", clash)).toThrow(/"box_id" is both a parameter and a body property/);
  });

  it("refuses a schema that refers to itself", () => {
    const looped = document(
      { "x-mcp": true, ...body({ $ref: "#/components/schemas/Tree" }) },
      { Tree: { type: "object", properties: { child: { $ref: "#/components/schemas/Tree" } } } },
    );
    expect(() => toolsOf("inbox", looped)).toThrow(/refers to itself/);
  });
});
