import fc from "fast-check";
import type { JsonSchema, OpenApiDocument } from "../src/spec/spec-bundle.ts";
import { dereference } from "../src/spec/spec-bundle.ts";
import { NumberLiteral, PoolReference } from "./draft-values.ts";
import {
  patternNearMisses,
  subtleDateTimes,
  subtleEmails,
  subtleHostnames,
  subtleUris,
  subtleUuids,
  unusualDateTimes,
  unusualEmails,
  unusualHostnames,
  unusualUris,
  unusualUuids,
} from "./format-values.ts";
import {
  HOSTILE_STRINGS,
  JSON_TYPE_SAMPLES,
  NUMBER_LITERALS,
  ODD_ADDRESSES,
  PUNCTUATION_EDGES,
} from "./hostile-values.ts";
import { stringsMatching } from "./pattern-values.ts";

/** Generators of values for the schemas of one spec: values the schema takes, and values it should refuse. */
export interface SchemaValues {
  /**
   * Values meant to match `schema`, biased to its edges (empty, longest, smallest, largest, odd but legal shapes).
   * `field` names the property or parameter: an `..._id` field also draws ids seen in earlier answers.
   */
  valid(schema: JsonSchema, field: string | null): fc.Arbitrary<unknown>;
  /** Values meant to break `schema`: wrong types, out of range, too long or short, missing or extra properties. */
  invalid(schema: JsonSchema, field: string | null): fc.Arbitrary<unknown>;
  /** The schema with its `$ref` followed. */
  resolve(schema: JsonSchema): JsonSchema;
}

const MAX_DEPTH = 5;
/** How much likelier each well-formed shape of a string is than each near miss. */
const NEAR_MISS_ODDS = 6;
/** Long enough to cross every length limit of the specs, short enough to stay quick. */
const SHORT = 24;
/** How much likelier a drawn value is than one of the spec's examples, where the schema gives examples. */
const EXAMPLE_ODDS = 2;
/** How much likelier an array of a few items is than one of the most items allowed. */
const FEW_ITEMS_ODDS = 3;
/** How much likelier an object with any of its optional properties is than one with only the required ones. */
const ANY_PROPERTIES_ODDS = 3;
/** How many optional properties make an object drawn with one of them alone too. */
const MANY_OPTIONAL_PROPERTIES = 6;

type JsonType = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";

const jsonTypeOf = (value: unknown): JsonType[] => {
  if (value === null) {
    return ["null"];
  }
  if (Array.isArray(value)) {
    return ["array"];
  }
  if (typeof value === "number") {
    return Number.isInteger(value) ? ["integer", "number"] : ["number"];
  }
  return [typeof value as "boolean" | "string" | "object"];
};

/**
 * Fields whose items are ids of a kind their name does not end in: a draft's `remove_attachments` names attachment
 * ids, of which only the draft's own are taken.
 */
const ID_LIST_FIELDS: Readonly<Record<string, string>> = { remove_attachments: "attachment_id" };

/** Whether a field's values are ids (`message_ids`, `remove_attachments`), of which only issued ones name anything. */
const namesIds = (field: string | null): boolean =>
  field !== null && (field.endsWith("_id") || field.endsWith("_ids") || field in ID_LIST_FIELDS);

/**
 * The pool a named field draws from: `post_id` from post ids, `inbox_ids` items from inbox ids, `agent_name` from
 * agents' names, e-mail fields from inbox addresses (so that sends reach hosted inboxes). Unnamed values (path
 * parameters) draw nothing.
 */
export function poolKeyOf(field: string | null, schema: JsonSchema): string | null {
  if (field === null) {
    return null;
  }
  const listed = ID_LIST_FIELDS[field];
  if (listed !== undefined) {
    return listed;
  }
  if (schema.format === "email") {
    return "inbox_id";
  }
  if (field.endsWith("_ids")) {
    return field.slice(0, -1);
  }
  // A name that identifies (`agent_name`, with a pattern), unlike one only shown (`display_name`).
  if (field.endsWith("_name") && typeof schema.pattern === "string") {
    return field;
  }
  return field.endsWith("_id") ? field : null;
}

/**
 * Values for the schemas of one spec. `hostedDomains` are the domains the server hosts: address and host name fields
 * draw them too, so that what a hosted domain allows is reached as often as what another domain is refused.
 */
export function createSchemaValues(document: OpenApiDocument, hostedDomains: readonly string[] = []): SchemaValues {
  const deref = (schema: JsonSchema): JsonSchema => dereference<JsonSchema>(document, schema);

  const typesOf = (schema: JsonSchema): JsonType[] => {
    if (Array.isArray(schema.type)) {
      return schema.type as JsonType[];
    }
    if (typeof schema.type === "string") {
      return [schema.type as JsonType];
    }
    return schema.properties ? ["object"] : schema.items ? ["array"] : ["string"];
  };

  const numberBound = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

  function validString(schema: JsonSchema, field: string | null): fc.Arbitrary<unknown> {
    const minLength = numberBound(schema.minLength) ?? 0;
    const maxLength = numberBound(schema.maxLength);
    const fitsLength = (text: string) => {
      const length = [...text].length;
      return length >= minLength && (maxLength === undefined || length <= maxLength);
    };
    const shapes: fc.Arbitrary<unknown>[] = [];
    /**
     * Values one step from the format or pattern, drawn less often: a list of fifty addresses must still be all
     * well-formed often enough to reach what a valid request does.
     */
    const nearMisses: fc.Arbitrary<unknown>[] = [];
    switch (schema.format) {
      case "uuid":
        shapes.push(fc.uuid(), unusualUuids);
        nearMisses.push(subtleUuids);
        break;
      case "email":
        shapes.push(
          fc.emailAddress(),
          fc.constantFrom("someone@example.com", "Someone@Example.com"),
          unusualEmails(hostedDomains),
        );
        nearMisses.push(subtleEmails);
        break;
      case "hostname":
        shapes.push(
          fc.domain(),
          fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?\.?$/),
          fc.constantFrom("pigeonhole.test", "example.com", "net", "example.com.", ...hostedDomains),
          unusualHostnames(hostedDomains),
        );
        nearMisses.push(subtleHostnames);
        break;
      case "uri":
        shapes.push(
          fc.webUrl({ withQueryParameters: true }),
          fc.constantFrom("https://example.com/hook", "http://127.0.0.1:1/x", "ftp://example.com/", "urn:isbn:0"),
          unusualUris,
        );
        nearMisses.push(subtleUris);
        break;
      case "date-time":
        shapes.push(
          fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
          unusualDateTimes,
        );
        nearMisses.push(subtleDateTimes);
        break;
    }
    if (typeof schema.pattern === "string") {
      const pattern = new RegExp(schema.pattern, "u");
      const matching = stringsMatching(pattern).filter(fitsLength);
      shapes.push(matching);
      nearMisses.push(patternNearMisses(matching));
      const edges = PUNCTUATION_EDGES.filter((text) => pattern.test(text) && fitsLength(text));
      if (edges.length > 0) {
        shapes.push(fc.constantFrom(...edges));
      }
    }
    if (schema.contentEncoding === "base64") {
      shapes.push(fc.base64String({ maxLength: 200 }));
    }
    // A domain named by a plain string (one the server must host to take it): domains, hosted ones among them, as
    // well as any text.
    const plainDomain = shapes.length === 0 && field !== null && /(?:^|_)domain$/.test(field);
    if (plainDomain) {
      shapes.push(fc.constantFrom("example.com", ...hostedDomains), fc.domain());
      if (hostedDomains.length > 0) {
        shapes.push(fc.constantFrom(...hostedDomains));
      }
    }
    if (shapes.length === 0 || plainDomain) {
      const shortest = Math.min(maxLength ?? SHORT, SHORT);
      shapes.push(
        fc.string({ minLength, maxLength: shortest }),
        fc.string({ minLength, maxLength: shortest, unit: "grapheme" }),
        maxLength === undefined
          ? fc.constantFrom("x".repeat(20_000), "\u{1f642}".repeat(2_000))
          : fc.constantFrom("x".repeat(maxLength), "\u00e9".repeat(maxLength)),
      );
    }
    const pool = poolKeyOf(field, schema);
    const plain = fc.oneof(
      ...shapes.map((arbitrary) => ({ arbitrary, weight: NEAR_MISS_ODDS })),
      ...nearMisses.map((arbitrary) => ({ arbitrary, weight: 1 })),
    );
    if (pool === null) {
      return plain;
    }
    return fc.oneof(
      { arbitrary: plain, weight: 1 },
      { arbitrary: fc.nat().map((pick) => new PoolReference(pool, pick, "own")), weight: 3 },
      { arbitrary: fc.nat().map((pick) => new PoolReference(pool, pick, "foreign")), weight: 1 },
    );
  }

  function validNumber(schema: JsonSchema, integer: boolean): fc.Arbitrary<unknown> {
    const exclusiveMin = numberBound(schema.exclusiveMinimum);
    const exclusiveMax = numberBound(schema.exclusiveMaximum);
    const min = numberBound(schema.minimum) ?? (exclusiveMin === undefined ? undefined : exclusiveMin + 1);
    const max = numberBound(schema.maximum) ?? (exclusiveMax === undefined ? undefined : exclusiveMax - 1);
    const edges: unknown[] = [min, max, min === undefined ? -1 : undefined, 0].filter((edge) => edge !== undefined);
    if (max === undefined) {
      // With no maximum every large integer is legal, so the spec promises to take it.
      edges.push(Number.MAX_SAFE_INTEGER, new NumberLiteral("9223372036854775808"), new NumberLiteral("1e300"));
    }
    const inRange = integer
      ? fc.integer({ min: Math.max(min ?? -1_000_000, -1_000_000), max: Math.min(max ?? 1_000_000, 1_000_000) })
      : fc.double({ min: min ?? -1e6, max: max ?? 1e6, noNaN: true, noDefaultInfinity: true });
    return fc.oneof(inRange, fc.constantFrom(...edges));
  }

  function valid(schemaIn: JsonSchema, field: string | null, depth = 0): fc.Arbitrary<unknown> {
    const schema = deref(schemaIn);
    if ("const" in schema) {
      return fc.constant(schema.const);
    }
    if (Array.isArray(schema.enum)) {
      return fc.constantFrom(...(schema.enum as unknown[]));
    }
    const alternatives = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
    const drawn = alternatives
      ? fc.oneof(...alternatives.map((alternative) => valid(alternative, field, depth + 1)))
      : fc.oneof(...typesOf(schema).map((type) => validOfType(type, schema, field, depth)));
    // The spec's own examples: what a field means where its schema says little (a list entry is an address or a
    // domain), so that a request reaches what it does, not only its checks.
    // Not for a field naming ids, though: an example's id names nothing the server holds, and ids come from the pool.
    const examples = Array.isArray(schema.examples) && !namesIds(field) ? (schema.examples as unknown[]) : [];
    // A plain string (no format, no pattern) says least of all: its examples are drawn as often as anything else.
    const plain = schema.type === "string" && schema.format === undefined && schema.pattern === undefined;
    return examples.length === 0
      ? drawn
      : fc.oneof(
          { weight: plain ? 1 : EXAMPLE_ODDS, arbitrary: drawn },
          { weight: 1, arbitrary: fc.constantFrom(...examples) },
        );
  }

  function validOfType(type: JsonType, schema: JsonSchema, field: string | null, depth: number): fc.Arbitrary<unknown> {
    switch (type) {
      case "null":
        return fc.constant(null);
      case "boolean":
        return fc.boolean();
      case "integer":
      case "number":
        return validNumber(schema, type === "integer");
      case "string":
        return validString(schema, field);
      case "array":
        return validArray(schema, field, depth);
      case "object":
        return validObject(schema, depth);
    }
  }

  function validArray(schema: JsonSchema, field: string | null, depth: number): fc.Arbitrary<unknown> {
    if (depth >= MAX_DEPTH) {
      return fc.constant([]);
    }
    const item = valid((schema.items as JsonSchema | undefined) ?? {}, field, depth + 1);
    const minLength = numberBound(schema.minItems) ?? 0;
    const maxItems = numberBound(schema.maxItems);
    const lengths = [{ minLength, maxLength: Math.max(minLength, Math.min(maxItems ?? 4, 4)), weight: FEW_ITEMS_ODDS }];
    if (maxItems !== undefined) {
      lengths.push({ minLength: maxItems, maxLength: maxItems, weight: 1 });
    }
    return fc.oneof(
      ...lengths.map(({ weight, ...constraints }) => ({
        weight,
        arbitrary:
          schema.uniqueItems === true
            ? fc.uniqueArray(item, { ...constraints, selector: (value) => JSON.stringify(value) })
            : fc.array(item, constraints),
      })),
    );
  }

  function validObject(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    if (depth >= MAX_DEPTH) {
      return fc.constant({});
    }
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = ((schema.required ?? []) as string[]).filter((name) => name in properties);
    const drawn = Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [name, valid(property, name, depth + 1)]),
    );
    // Sometimes only what is required: each optional property drawn is one more way for a valid request to name
    // something missing (a reply to no message) or to clash with another (a reply to all, with recipients).
    const requiredOnly = Object.fromEntries(required.map((name) => [name, drawn[name] as fc.Arbitrary<unknown>]));
    const shapes = [
      { weight: ANY_PROPERTIES_ODDS, arbitrary: fc.record(drawn, { requiredKeys: required }) },
      { weight: 1, arbitrary: fc.record(requiredOnly) },
    ];
    // Where there are many optional properties (an update of a draft), sometimes one of them alone, as an update of
    // one field is sent: a body drawing many of them seldom has every one right.
    const optional = Object.keys(properties).filter((name) => !required.includes(name));
    if (optional.length >= MANY_OPTIONAL_PROPERTIES) {
      shapes.push({
        weight: 1,
        arbitrary: fc
          .constantFrom(...optional)
          .chain((name) => fc.record({ ...requiredOnly, [name]: drawn[name] as fc.Arbitrary<unknown> })),
      });
    }
    const record = fc.oneof(...shapes);
    const additional = schema.additionalProperties;
    if (additional === undefined || typeof additional === "boolean") {
      return record;
    }
    const extra = fc.dictionary(
      fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom("In-Reply-To", "References", "X-Custom")),
      valid(additional as JsonSchema, null, depth + 1),
      { maxKeys: 3 },
    );
    return fc.tuple(record, extra).map(([known, more]) => ({ ...more, ...known }));
  }

  function invalid(schemaIn: JsonSchema, field: string | null, depth = 0): fc.Arbitrary<unknown> {
    const schema = deref(schemaIn);
    const types = typesOf(schema);
    const wrongTypes = JSON_TYPE_SAMPLES.filter((sample) => !jsonTypeOf(sample).some((type) => types.includes(type)));
    const options: fc.Arbitrary<unknown>[] = [fc.constantFrom(...wrongTypes)];
    if (Array.isArray(schema.enum)) {
      const allowed = schema.enum as unknown[];
      const misses = ["", "HOT", "sideways", "Up", "up ", ...allowed.map((value) => `${String(value)}x`)];
      options.push(fc.constantFrom(...misses.filter((miss) => !allowed.includes(miss))));
      return fc.oneof(...options);
    }
    if (types.includes("string")) {
      options.push(...invalidStrings(schema));
    }
    if (types.includes("integer") || types.includes("number")) {
      options.push(invalidNumbers(schema, types.includes("integer")));
    }
    if (types.includes("array") && depth < MAX_DEPTH) {
      options.push(invalidArrays(schema, field, depth));
    }
    if (types.includes("object") && depth < MAX_DEPTH) {
      options.push(...invalidObjects(schema, depth));
    }
    return fc.oneof(...options);
  }

  function invalidStrings(schema: JsonSchema): fc.Arbitrary<unknown>[] {
    const options: fc.Arbitrary<unknown>[] = [];
    const minLength = numberBound(schema.minLength);
    const maxLength = numberBound(schema.maxLength);
    if (minLength !== undefined && minLength > 0) {
      options.push(fc.constant("x".repeat(minLength - 1)));
    }
    if (maxLength !== undefined) {
      options.push(fc.constantFrom("x".repeat(maxLength + 1), "\u00e9".repeat(maxLength + 1)));
    }
    if (typeof schema.pattern === "string") {
      const pattern = new RegExp(schema.pattern, "u");
      const misses = [...HOSTILE_STRINGS, ...PUNCTUATION_EDGES, "UPPER", "a b"].filter((text) => !pattern.test(text));
      if (misses.length > 0) {
        options.push(fc.constantFrom(...misses));
      }
    }
    switch (schema.format) {
      case "email":
        options.push(fc.constantFrom(...ODD_ADDRESSES), subtleEmails);
        break;
      case "uuid":
        options.push(
          fc.constantFrom(
            "not-a-uuid",
            "7c9e6679742540de944be07fc1f90ae7",
            "7c9e6679-7425-40de-944b-e07fc1f90ae",
            "7c9e6679-7425-40de-944b-e07fc1f90aeg",
            "{7c9e6679-7425-40de-944b-e07fc1f90ae7}",
          ),
          subtleUuids,
        );
        break;
      case "uri":
        options.push(
          fc.constantFrom("not a url", "//example.com", "http//example.com", ":", "https://exa mple.com"),
          subtleUris,
        );
        break;
      case "hostname":
        options.push(
          fc.constantFrom("-bad-.com", "a..b", "exa mple.com", `${"x".repeat(64)}.com`, ".lead", "\u00e9.com"),
          subtleHostnames,
        );
        break;
      case "date-time":
        options.push(subtleDateTimes);
        break;
    }
    if (schema.contentEncoding === "base64") {
      options.push(fc.constantFrom("not base64!", "abc", "===="));
    }
    return options;
  }

  function invalidNumbers(schema: JsonSchema, integer: boolean): fc.Arbitrary<unknown> {
    const min = numberBound(schema.minimum);
    const max = numberBound(schema.maximum);
    const misses: unknown[] = [];
    if (min !== undefined) {
      misses.push(min - 1, -1e300);
    }
    if (max !== undefined) {
      misses.push(max + 1, new NumberLiteral("1e300"), new NumberLiteral("9223372036854775808"));
    }
    if (integer) {
      misses.push(0.5, (min ?? 0) + 0.5, new NumberLiteral("1e400"));
    }
    misses.push(...NUMBER_LITERALS.map((text) => new NumberLiteral(text)));
    return fc.constantFrom(...misses);
  }

  function invalidArrays(schema: JsonSchema, field: string | null, depth: number): fc.Arbitrary<unknown> {
    const item = (schema.items as JsonSchema | undefined) ?? {};
    const options: fc.Arbitrary<unknown>[] = [
      fc.array(invalid(item, field, depth + 1), { minLength: 1, maxLength: 2 }),
    ];
    const minItems = numberBound(schema.minItems);
    const maxItems = numberBound(schema.maxItems);
    if (minItems !== undefined && minItems > 0) {
      options.push(fc.constant([]));
    }
    if (maxItems !== undefined) {
      options.push(fc.array(valid(item, field, depth + 1), { minLength: maxItems + 1, maxLength: maxItems + 1 }));
    }
    if (schema.uniqueItems === true) {
      options.push(valid(item, field, depth + 1).map((value) => [value, value]));
    }
    return fc.oneof(...options);
  }

  function invalidObjects(schema: JsonSchema, depth: number): fc.Arbitrary<unknown>[] {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = ((schema.required ?? []) as string[]).filter((name) => name in properties);
    const whole = validObject(schema, depth);
    const options: fc.Arbitrary<unknown>[] = [];
    if (required.length > 0) {
      options.push(
        fc.tuple(whole, fc.constantFrom(...required)).map(([value, name]) => {
          const { [name]: _dropped, ...rest } = value as Record<string, unknown>;
          return rest;
        }),
      );
    }
    if (schema.additionalProperties === false) {
      options.push(
        fc
          .tuple(whole, fc.constantFrom("unexpected_field", "__proto__", "constructor", ""), fc.jsonValue())
          .map(([value, name, extra]) => ({ ...(value as object), [name]: extra })),
      );
    }
    const names = Object.keys(properties);
    if (names.length > 0) {
      options.push(
        fc
          .constantFrom(...names)
          .chain((name) =>
            fc
              .tuple(whole, invalid(properties[name] ?? {}, name, depth + 1))
              .map(([value, broken]) => ({ ...(value as object), [name]: broken })),
          ),
      );
    }
    return options;
  }

  return {
    valid: (schema, field) => valid(schema, field),
    invalid: (schema, field) => invalid(schema, field),
    resolve: deref,
  };
}
