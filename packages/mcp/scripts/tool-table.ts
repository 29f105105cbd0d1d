// Builds the MCP tool table from a bundled OpenAPI document: every operation that opts in with `x-mcp` becomes a
// tool whose input schema merges its path, query and body, every reference resolved, so the running server needs
// no spec at all.
import { dereference, isReference, type PathMap, type Reference, walkOperations } from "@pigeonhole/openapi-walker";
import type { GeneratedTool, JsonSchema, JsonValue, ServiceName } from "../src/tool-definition.ts";

/** The extension an operation opts in with: `x-mcp: true`, or an object whose `description` is written for a model. */
export type McpExtension = true | { description?: string };

interface Parameter {
  name: string;
  in: string;
  description?: string;
  required?: boolean;
  schema?: JsonSchema | Reference;
}

interface MediaType {
  schema?: JsonSchema | Reference;
}

interface Operation {
  operationId: string;
  summary: string;
  description: string;
  parameters?: (Parameter | Reference)[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> } | Reference;
  responses: Record<string, { content?: Record<string, MediaType> } | Reference>;
  "x-mcp"?: McpExtension;
}

/** A bundled document, as far as the table reads it; the walker checks each part it follows. */
interface Document {
  paths?: PathMap<Operation, Parameter>;
}

/** Keywords that only illustrate: they cost a model's context and say nothing a description does not. */
const DROPPED_KEYWORDS = new Set(["examples", "example"]);

/** An operation that cannot become a tool as written: the spec needs a change. */
export class ToolTableError extends Error {
  override name = "ToolTableError";
}

/** `sendMessage` -> `send_message`. */
export const snakeCase = (operationId: string): string =>
  operationId.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

/** The schema with every `$ref` replaced by what it names, and the illustrative keywords left out. */
export function inlineSchema(document: unknown, node: JsonValue | Reference, trail: readonly string[] = []): JsonValue {
  if (Array.isArray(node)) {
    return node.map((item) => inlineSchema(document, item, trail));
  }
  if (typeof node !== "object" || node === null) {
    return node as JsonValue;
  }
  if (isReference(node)) {
    if (trail.includes(node.$ref)) {
      throw new ToolTableError(`${node.$ref} refers to itself; a tool's schema must be finite.`);
    }
    return inlineSchema(document, dereference<JsonValue>(document, node), [...trail, node.$ref]);
  }
  const inlined: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!DROPPED_KEYWORDS.has(key)) {
      // `properties` maps names to schemas: a property may be called `examples` and must stay.
      inlined[key] =
        key === "properties"
          ? inlineProperties(document, value as JsonSchema, trail)
          : inlineSchema(document, value, trail);
    }
  }
  return inlined;
}

function inlineProperties(document: unknown, properties: JsonSchema, trail: readonly string[]): JsonValue {
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => [name, inlineSchema(document, schema, trail)]),
  );
}

/** The JSON schema of a media-type map's `application/json` entry, inlined, if there is one. */
function jsonSchemaOf(document: unknown, content: Record<string, MediaType> | undefined): JsonSchema | null {
  const schema = content?.["application/json"]?.schema;
  return schema === undefined ? null : (inlineSchema(document, schema) as JsonSchema);
}

const isObjectSchema = (schema: JsonSchema | null): schema is JsonSchema =>
  schema !== null && schema.type === "object" && typeof schema.properties === "object";

/** The success answer's schema, when it is a JSON object (MCP's structured content is one). */
function outputSchemaOf(document: unknown, operation: Operation): JsonSchema | null {
  const status = Object.keys(operation.responses).find((code) => code.startsWith("2"));
  const response = status === undefined ? undefined : dereference(document, operation.responses[status]);
  const schema = jsonSchemaOf(document, response?.content);
  return isObjectSchema(schema) ? schema : null;
}

/** What the model reads first: the extension's text when the spec wrote one for a model, else the operation's own. */
function descriptionOf(operation: Operation, extension: McpExtension): string {
  if (extension !== true && extension.description) {
    return extension.description.trim();
  }
  return `${operation.summary}.\n\n${operation.description.trim()}`;
}

/** Adds one argument, refusing a name another location already uses: the model sends one flat object. */
function addProperty(properties: Record<string, JsonValue>, name: string, schema: JsonValue, operationId: string) {
  if (name in properties) {
    throw new ToolTableError(
      `${operationId}: "${name}" is both a parameter and a body property; rename one, since a tool's arguments are one object.`,
    );
  }
  properties[name] = schema;
}

function toolOf(document: unknown, service: ServiceName, walked: WalkedTool): GeneratedTool {
  const { path, method, operation, parameters, extension } = walked;
  const properties: Record<string, JsonValue> = {};
  const required: string[] = [];
  const located = { path: [] as string[], query: [] as string[], body: [] as string[] };
  for (const parameter of parameters) {
    if (parameter.in !== "path" && parameter.in !== "query") {
      continue; // Headers (such as Idempotency-Key) are the client's business, not the model's.
    }
    const schema = inlineSchema(document, parameter.schema ?? {}) as JsonSchema;
    addProperty(
      properties,
      parameter.name,
      { ...schema, description: parameter.description ?? "" },
      operation.operationId,
    );
    located[parameter.in].push(parameter.name);
    if (parameter.in === "path" || parameter.required) {
      required.push(parameter.name);
    }
  }
  const requestBody = operation.requestBody === undefined ? undefined : dereference(document, operation.requestBody);
  const body = jsonSchemaOf(document, requestBody?.content);
  if (body !== null) {
    if (!isObjectSchema(body)) {
      throw new ToolTableError(`${operation.operationId}: a tool's body must be a JSON object schema.`);
    }
    for (const [name, schema] of Object.entries(body.properties as JsonSchema)) {
      addProperty(properties, name, schema, operation.operationId);
      located.body.push(name);
    }
    if (requestBody?.required && Array.isArray(body.required)) {
      required.push(...(body.required as string[]));
    }
  }
  const inputSchema: Record<string, JsonValue> = { type: "object", properties, additionalProperties: false };
  if (required.length > 0) {
    inputSchema.required = required;
  }
  return {
    name: `${service}_${snakeCase(operation.operationId)}`,
    service,
    operationId: operation.operationId,
    title: operation.summary,
    description: descriptionOf(operation, extension),
    method: method as GeneratedTool["method"],
    path,
    pathParameters: located.path,
    queryParameters: located.query,
    bodyProperties: located.body,
    inputSchema,
    outputSchema: outputSchemaOf(document, operation),
    readOnly: method === "get",
  };
}

interface WalkedTool {
  path: string;
  method: string;
  operation: Operation;
  parameters: Parameter[];
  extension: McpExtension;
}

/** The tools of one API (a parsed bundle): its operations marked `x-mcp`, in document order. */
export function toolsOf(service: ServiceName, document: unknown): GeneratedTool[] {
  return walkOperations<Operation, Parameter>(document, (document as Document).paths)
    .flatMap(({ operation, ...rest }) => {
      const extension = operation["x-mcp"];
      return extension === undefined || (extension as unknown) === false ? [] : [{ ...rest, operation, extension }];
    })
    .map((walked) => toolOf(document, service, walked));
}
