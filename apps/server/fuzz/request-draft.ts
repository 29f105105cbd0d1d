import fc from "fast-check";
import type { JsonSchema } from "../src/spec/spec-bundle.ts";
import { PoolReference, toParameterText } from "./draft-values.ts";
import {
  CONTENT_TYPES,
  HOSTILE_PARAMETERS,
  MALFORMED_BODIES,
  NUMERIC_TEXTS,
  RAW_PATH_SEGMENTS,
} from "./hostile-values.ts";
import type { SchemaValues } from "./schema-values.ts";
import type { FuzzOperation } from "./spec-operations.ts";

/** Where a path parameter's value comes from; pool picks are resolved when the request is sent. */
export type PathChoice =
  /** One of the caller's own ids seen in earlier answers (`fallback` when none is known yet). */
  | { kind: "own"; pick: number; fallback: string }
  /** An id another key created: another tenant's, or another agent's in the one forum. */
  | { kind: "foreign"; pick: number; fallback: string }
  /** An id the caller deleted. */
  | { kind: "gone"; pick: number; fallback: string }
  /** A generated value, valid or not, URL-encoded. */
  | { kind: "value"; value: string }
  /** A segment written into the URL as it is. */
  | { kind: "raw"; segment: string };

export type BodyDraft =
  | { kind: "none" }
  | { kind: "json"; value: unknown; contentType: string | null }
  | { kind: "text"; text: string; contentType: string | null };

export type Credentials = "own" | "none" | "bad";

/** One request, drawn by fast-check, before ids from earlier answers are filled in. */
export interface RequestDraft {
  operation: FuzzOperation;
  method: string;
  path: Record<string, PathChoice>;
  /** Query parameters in order; a name may repeat. */
  query: [string, unknown][];
  headers: [string, unknown][];
  body: BodyDraft;
  credentials: Credentials;
}

const METHODS = ["GET", "PUT", "POST", "DELETE", "PATCH"];
const isNumeric = (schema: JsonSchema) => ["integer", "number"].includes(String(schema.type));

/**
 * Every request this operation may be sent: its parameters and body from the schemas, valid and not. Where every key
 * sees every other key's data (`sharedData`, the one forum), ids of another key's are drawn more often: there, what only
 * another's data allows (a vote) is a success path.
 */
export function requestDrafts(
  operation: FuzzOperation,
  values: SchemaValues,
  sharedData = false,
): fc.Arbitrary<RequestDraft> {
  const pathEntries = operation.pathParameters.map((parameter) => {
    const wellFormed = values.valid(parameter.schema, null).map(toParameterText);
    const choice: fc.Arbitrary<PathChoice> = fc.oneof(
      // Mostly the caller's own ids: an operation three ids deep (an attachment of a message of an inbox) must be
      // drawn with all three its own often enough to succeed.
      {
        weight: 16,
        arbitrary: fc.tuple(fc.nat(), wellFormed).map(([pick, fallback]) => ({ kind: "own", pick, fallback }) as const),
      },
      {
        weight: sharedData ? 6 : 2,
        arbitrary: fc
          .tuple(fc.nat(), wellFormed)
          .map(([pick, fallback]) => ({ kind: "foreign", pick, fallback }) as const),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.nat(), wellFormed)
          .map(([pick, fallback]) => ({ kind: "gone", pick, fallback }) as const),
      },
      { weight: 2, arbitrary: wellFormed.map((value) => ({ kind: "value", value }) as const) },
      {
        weight: 1,
        arbitrary: values
          .invalid(parameter.schema, null)
          .map((value) => ({ kind: "value", value: toParameterText(value) }) as const),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(...HOSTILE_PARAMETERS).map((value) => ({ kind: "value", value }) as const),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(...RAW_PATH_SEGMENTS).map((segment) => ({ kind: "raw", segment }) as const),
      },
    );
    return fc.tuple(fc.constant(parameter.name), choice);
  });

  const queryEntries = operation.queryParameters.map((parameter) => {
    const one = fc.oneof(
      { weight: 4, arbitrary: values.valid(parameter.schema, parameter.name) },
      { weight: 1, arbitrary: fc.nat().map((pick) => new PoolReference(parameter.name, pick, "own")) },
      { weight: 2, arbitrary: values.invalid(parameter.schema, null) },
      { weight: isNumeric(values.resolve(parameter.schema)) ? 3 : 0, arbitrary: fc.constantFrom(...NUMERIC_TEXTS) },
      { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_PARAMETERS) },
    );
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant([] as [string, unknown][]) },
      { weight: 5, arbitrary: one.map((value) => [[parameter.name, value]] as [string, unknown][]) },
      {
        weight: 1,
        arbitrary: fc.tuple(one, one).map(
          ([a, b]) =>
            [
              [parameter.name, a],
              [parameter.name, b],
            ] as [string, unknown][],
        ),
      },
    );
  });
  // Sometimes only the required parameters, each valid: every optional one drawn is one more way to be refused (a page
  // token no list gave), and an operation with many of them would seldom be answered as its valid requests are.
  const requiredQuery = fc.tuple(
    ...operation.queryParameters
      .filter((parameter) => parameter.required === true)
      .map((parameter) =>
        values.valid(parameter.schema, parameter.name).map((value) => [[parameter.name, value]] as [string, unknown][]),
      ),
  );
  const unknownQuery = fc.oneof(
    { weight: 6, arbitrary: fc.constant([] as [string, unknown][]) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom("utm_source", "LIMIT", "limit[]", "", "\u00e9", "a".repeat(300)), fc.string())
        .map(([name, value]) => [[name, value]] as [string, unknown][]),
    },
  );

  const headerEntries = operation.headerParameters.map((parameter) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant([] as [string, unknown][]) },
      {
        weight: 3,
        arbitrary: values
          .valid(parameter.schema, null)
          .map((value) => [[parameter.name, value]] as [string, unknown][]),
      },
      {
        weight: 1,
        arbitrary: values
          .invalid(parameter.schema, null)
          .map((value) => [[parameter.name, value]] as [string, unknown][]),
      },
      // A key used again, with a body that may differ: the idempotent replay and the conflict.
      {
        weight: 1,
        arbitrary: fc
          .constantFrom("repeat-1", "repeat-2")
          .map((value) => [[parameter.name, value]] as [string, unknown][]),
      },
    ),
  );

  // Where the answer may come as bytes or as JSON, a request asks for one of them, or leaves it to the default.
  const acceptEntries =
    operation.answerMediaTypes.length === 0
      ? fc.constant([] as [string, unknown][])
      : fc.oneof(
          { weight: 1, arbitrary: fc.constant([] as [string, unknown][]) },
          {
            weight: 2,
            arbitrary: fc
              .constantFrom(...operation.answerMediaTypes)
              .map((type) => [["Accept", type]] as [string, unknown][]),
          },
        );

  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant<string | null>("application/json") },
    { weight: 1, arbitrary: fc.constantFrom<string | null>(...CONTENT_TYPES, null) },
  );
  const body: fc.Arbitrary<BodyDraft> = operation.body
    ? fc.oneof(
        {
          weight: 8,
          arbitrary: fc
            .tuple(values.valid(operation.body.schema, null), contentType)
            .map(([value, type]) => ({ kind: "json", value, contentType: type }) as const),
        },
        {
          weight: 4,
          arbitrary: fc
            .tuple(values.invalid(operation.body.schema, null), contentType)
            .map(([value, type]) => ({ kind: "json", value, contentType: type }) as const),
        },
        {
          weight: 1,
          arbitrary: fc.jsonValue().map((value) => ({ kind: "json", value, contentType: "application/json" }) as const),
        },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.constantFrom(...MALFORMED_BODIES), contentType)
            .map(([text, type]) => ({ kind: "text", text, contentType: type }) as const),
        },
        { weight: 1, arbitrary: fc.constant({ kind: "none" } as const) },
      )
    : fc.oneof(
        { weight: 8, arbitrary: fc.constant({ kind: "none" } as const) },
        {
          weight: 1,
          arbitrary: fc.jsonValue().map((value) => ({ kind: "json", value, contentType: "application/json" }) as const),
        },
      );

  const unsupported = METHODS.filter((method) => !operation.pathMethods.includes(method));
  const method =
    unsupported.length === 0
      ? fc.constant(operation.method)
      : fc.oneof(
          { weight: 19, arbitrary: fc.constant(operation.method) },
          { weight: 1, arbitrary: fc.constantFrom(...unsupported) },
        );

  return fc.record({
    operation: fc.constant(operation),
    method,
    path: fc.tuple(...pathEntries).map((entries) => Object.fromEntries(entries)),
    query: fc.oneof(
      { weight: 3, arbitrary: fc.tuple(...queryEntries, unknownQuery).map((lists) => lists.flat()) },
      { weight: 1, arbitrary: requiredQuery.map((lists) => lists.flat()) },
    ),
    headers: fc.tuple(...headerEntries, acceptEntries).map((lists) => lists.flat()),
    body,
    credentials: fc.oneof(
      { weight: 30, arbitrary: fc.constant<Credentials>("own") },
      { weight: 1, arbitrary: fc.constantFrom<Credentials>("none", "bad") },
    ),
  });
}
