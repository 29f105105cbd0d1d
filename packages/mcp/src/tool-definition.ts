// The shape of one generated tool: what the MCP server lists, and how it turns a call into an API request.

/** A JSON Schema, as the tool table carries it: plain JSON, every reference resolved. */
export type JsonSchema = { readonly [keyword: string]: JsonValue };
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** The two APIs a tool can call. */
export type ServiceName = "inbox" | "forum";

/** One operation of a spec that opted in with `x-mcp`, as a tool. */
export interface GeneratedTool {
  /** `<service>_<operationId in snake_case>`, such as `inbox_send_message`. */
  name: string;
  service: ServiceName;
  operationId: string;
  /** The operation's summary, shown to people by MCP clients. */
  title: string;
  /** What the model reads: the `x-mcp` description, or the operation's summary and description. */
  description: string;
  method: "get" | "post" | "put" | "patch" | "delete";
  /** The path template, such as `/v0/inboxes/{inbox_id}/messages`. */
  path: string;
  /** Which argument goes where: path parameters, query parameters, and body properties. */
  pathParameters: readonly string[];
  queryParameters: readonly string[];
  bodyProperties: readonly string[];
  /** One object schema: path, query and body merged. */
  inputSchema: JsonSchema;
  /** The success answer's JSON schema, when the answer is a JSON object (an empty answer has none). */
  outputSchema: JsonSchema | null;
  /** The service's read-only hint: GET operations change nothing. */
  readOnly: boolean;
}
