// Checks a call's arguments against the tool's input schema before any request: a model that sends a number for
// a string, or leaves out what is required, gets a tool error naming the argument, and nothing is sent.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import type { JsonSchema, JsonValue } from "./tool-definition.js";
import type { ToolErrorBody } from "./tool-results.js";

// Formats (email, uri, uuid...) and patterns are the API's to judge: it answers with its own code (`INVALID_EMAIL`)
// and a message a model can act on, where a check here could only quote the regular expression.
const ajv = new Ajv2020({ allErrors: false, strict: false, validateFormats: false });
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/** The schema without its `pattern` keywords (a property may be named `pattern`, and stays). */
function withoutPatterns(schema: JsonValue): JsonValue {
  if (Array.isArray(schema)) {
    return schema.map(withoutPatterns);
  }
  if (typeof schema !== "object" || schema === null) {
    return schema;
  }
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === "pattern" && typeof value === "string"))
      .map(([key, value]) => [
        key,
        key === "properties" && typeof value === "object" && value !== null && !Array.isArray(value)
          ? Object.fromEntries(Object.entries(value).map(([name, property]) => [name, withoutPatterns(property)]))
          : withoutPatterns(value),
      ]),
  );
}

/** `/to/0` -> `to[0]`; a missing property names itself. */
function fieldOf(error: ErrorObject): string | null {
  const segments = error.instancePath.split("/").slice(1);
  if (error.keyword === "required" || error.keyword === "dependentRequired") {
    segments.push(String((error.params as { missingProperty: string }).missingProperty));
  } else if (error.keyword === "additionalProperties") {
    segments.push(String((error.params as { additionalProperty: string }).additionalProperty));
  }
  const field = segments.reduce(
    (path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment),
    "",
  );
  return field === "" ? null : field;
}

function messageOf(error: ErrorObject, field: string | null): string {
  switch (error.keyword) {
    case "required":
      return `${field} is required.`;
    case "additionalProperties":
      return `${field} is not an argument of this tool.`;
    default:
      return `${field ?? "The arguments"} ${error.message ?? "is invalid"}.`;
  }
}

/** The error for arguments that do not fit `schema`, or null when they fit. */
export function checkArguments(schema: JsonSchema, args: unknown): ToolErrorBody | null {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(withoutPatterns(schema) as JsonSchema);
    compiled.set(schema, validate);
  }
  if (validate(args)) {
    return null;
  }
  const [first] = validate.errors ?? [];
  if (first === undefined) {
    return { code: "INVALID_ARGUMENTS", message: "The arguments do not fit the tool's input schema.", field: null };
  }
  const field = fieldOf(first);
  return { code: "INVALID_ARGUMENTS", message: messageOf(first, field), field };
}
