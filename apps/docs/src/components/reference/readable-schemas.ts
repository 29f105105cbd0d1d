/**
 * How the reference shows a spec, changed where the renderer's output reads badly. Only the copy the site renders is
 * changed; the specs and their bundles keep every keyword, since the server validates requests with them.
 */

/** A pattern longer than this is a machine's rule, not a reader's: the description and `format` say it in words. */
export const LONGEST_SHOWN_PATTERN = 60;

/** What the renderer shows when a long pattern has no `format` to stand for it. */
export const PATTERN_HINT = "see the description";

/**
 * Keywords whose value the renderer prints only when it is truthy, so that a 0 is shown as a bare `0` (a default) or
 * not at all (a minimum). The same number written as text prints as `default: 0` and `>= 0`.
 */
const NUMBERS_SHOWN_WHEN_TRUTHY = ["default", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"];

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null;
}

/** Mutates `schema` (one schema object) so that the renderer prints it readably; returns nothing. */
function makeSchemaReadable(schema: Node): void {
  // `x-pattern-rule` is the spec's own wording of a pattern, which the server's errors quote too.
  const words = schema["x-pattern-rule"];
  if (
    typeof schema.pattern === "string" &&
    (typeof words === "string" || schema.pattern.length > LONGEST_SHOWN_PATTERN)
  ) {
    delete schema.pattern;
    // Worded patterns are described in the field's description already.
    if (typeof words !== "string") {
      schema.format ??= PATTERN_HINT;
    }
  }
  for (const keyword of NUMBERS_SHOWN_WHEN_TRUTHY) {
    if (schema[keyword] === 0) {
      schema[keyword] = "0";
    }
  }
}

/** A parameter that describes itself shows its schema's own description as a second text: keep the parameter's. */
function dropRepeatedDescription(parameter: Node): void {
  const schema = parameter.schema;
  if (typeof parameter.description === "string" && isNode(schema) && typeof schema.description === "string") {
    const { description: _repeated, ...rest } = schema;
    parameter.schema = rest;
  }
}

function isSchemaLike(node: Node): boolean {
  return "type" in node || "pattern" in node || "format" in node || "minimum" in node || "default" in node;
}

function isParameter(node: Node): boolean {
  return typeof node.name === "string" && typeof node.in === "string" && "schema" in node;
}

/**
 * Walks a parsed OpenAPI document (dereferenced or not, cycles included) and makes what the renderer prints from it
 * readable: long patterns give way to their format, zero bounds and defaults print with their keyword, and a
 * parameter's description is printed once. Safe to call again, and needed again once the renderer has replaced the
 * document's references by what they point to.
 */
export function makeDocumentReadable(document: unknown): void {
  const done = new WeakSet<object>();
  const pending: unknown[] = [document];
  while (pending.length > 0) {
    const node = pending.pop();
    if (!isNode(node) || done.has(node)) {
      continue;
    }
    done.add(node);
    if (Array.isArray(node)) {
      pending.push(...node);
      continue;
    }
    if (isParameter(node)) {
      dropRepeatedDescription(node);
    } else if (isSchemaLike(node)) {
      makeSchemaReadable(node);
    }
    for (const [key, value] of Object.entries(node)) {
      // Examples are data, not schemas: a `default` or `pattern` field in one is shown as written.
      if (key !== "example" && key !== "examples" && key !== "x-codeSamples") {
        pending.push(value);
      }
    }
  }
}
