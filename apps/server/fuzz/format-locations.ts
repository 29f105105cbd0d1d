import type { JsonSchema, OpenApiDocument } from "../src/spec/spec-bundle.ts";
import { dereference } from "../src/spec/spec-bundle.ts";

/** A string found where a schema declares a `format`. */
export interface FormattedValue {
  /** Where in the value, such as `/reply_to/0`. */
  at: string;
  format: string;
  value: string;
}

const MAX_DEPTH = 12;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Every string of `value` that `schema` gives a `format`, following `$ref`s, properties, items and each alternative of
 * `oneOf`, `anyOf` and `allOf` (an alternative that does not apply to the value declares nothing about it).
 */
export function formattedValues(document: OpenApiDocument, schema: JsonSchema, value: unknown): FormattedValue[] {
  const found: FormattedValue[] = [];
  const seen = new Set<string>();
  const visit = (node: JsonSchema, item: unknown, at: string, depth: number) => {
    if (depth > MAX_DEPTH) {
      return;
    }
    const resolved = dereference<JsonSchema>(document, node);
    if (typeof item === "string" && typeof resolved.format === "string") {
      const key = `${at}\u0000${resolved.format}`;
      if (!seen.has(key)) {
        seen.add(key);
        found.push({ at, format: resolved.format, value: item });
      }
    }
    for (const keyword of ["oneOf", "anyOf", "allOf"] as const) {
      for (const alternative of (resolved[keyword] as JsonSchema[] | undefined) ?? []) {
        visit(alternative, item, at, depth + 1);
      }
    }
    if (Array.isArray(item) && isObject(resolved.items)) {
      for (const [index, element] of item.entries()) {
        visit(resolved.items as JsonSchema, element, `${at}/${index}`, depth + 1);
      }
    }
    if (isObject(item) && isObject(resolved.properties)) {
      for (const [name, property] of Object.entries(resolved.properties as Record<string, JsonSchema>)) {
        if (name in item) {
          visit(property, item[name], `${at}/${name}`, depth + 1);
        }
      }
    }
  };
  visit(schema, value, "", 0);
  return found;
}
