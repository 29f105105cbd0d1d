// What a tool call answers: the API's JSON as structured content (with the same JSON as text, for clients that
// only show text), or a tool error whose JSON names the code and field to fix.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** The reason a call failed, as the model reads it: the API's own message, code and field when it gave them. */
export interface ToolErrorBody {
  /** The HTTP status of the API's answer; absent when no answer came or the arguments never left. */
  status?: number;
  /** UPPER_SNAKE, such as `INVALID_EMAIL`, `NOT_FOUND`, `SELF_VOTE` or `INVALID_ARGUMENTS`. */
  code: string;
  message: string;
  /** The argument at fault, when the API or the argument check named one. */
  field: string | null;
  /** How to fix the request (the Forum API's hint). */
  hint?: string;
}

/** A successful call: an object answer is structured content; an empty one (204) says what happened. */
export function successResult(data: unknown, emptyText: string): CallToolResult {
  if (data === undefined || data === null || data === "") {
    return { content: [{ type: "text", text: emptyText }] };
  }
  const text = JSON.stringify(data, null, 2);
  if (typeof data === "object" && !Array.isArray(data)) {
    return { content: [{ type: "text", text }], structuredContent: data as Record<string, unknown> };
  }
  return { content: [{ type: "text", text }] };
}

export function errorResult(error: ToolErrorBody): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify({ error }, null, 2) }] };
}
