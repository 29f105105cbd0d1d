// Writes a types package's call table: for every operation of a bundled OpenAPI document, the types a typed client
// needs for one call, spelled as lookups into openapi-typescript's `operations`. A client that reads them from this
// table checks each call of its users' programs with a few indexed accesses instead of conditional types walked per
// call (see client-core's path-types.ts), which is most of what type-checking a call costs.
import { dereference, type Reference, walkOperations } from "@pigeonhole/openapi-walker";

/** The HTTP methods a client offers, in the order the table lists them. */
const CLIENT_METHODS = ["get", "put", "post", "patch", "delete"] as const;

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema | Reference>;
  allOf?: (Schema | Reference)[];
}
interface MediaMap {
  content?: Record<string, { schema?: Schema | Reference }>;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}
interface Operation {
  operationId?: string;
  parameters?: readonly (Parameter | Reference)[];
  requestBody?: (MediaMap & { required?: boolean }) | Reference;
  responses?: Record<string, MediaMap | Reference>;
}
interface Document {
  paths?: Record<string, Record<string, unknown> | Reference>;
}

/**
 * The statuses openapi-fetch reads as a success (openapi-typescript-helpers' `OkStatus`) and as an error (its
 * `ErrorStatus`), so that the table agrees with the types it replaces.
 */
const SUCCESS = new Set(["200", "201", "202", "203", "204", "206", "207", "2XX"]);
const ERROR = new Set([
  ..."500 501 502 503 504 505 506 507 508 510 511 5XX".split(" "),
  ..."400 401 402 403 404 405 406 407 408 409 410 411 412 413 414 415 416 417 418".split(" "),
  ..."420 421 422 423 424 425 426 427 428 429 430 431 444 450 451 497 498 499 4XX default".split(" "),
]);
const isSuccess = (status: string) => SUCCESS.has(status);
const isError = (status: string) => ERROR.has(status);
const isJson = (media: string) => media.endsWith("/json");

/** A status as openapi-typescript keys it: numbers bare, anything else quoted. */
const statusKey = (status: string) => (/^\d+$/.test(status) ? status : JSON.stringify(status));

/** `name: <the union of types>;`, one member a line when there are several; `never` when there are none. */
function field(name: string, types: readonly string[]): string[] {
  const members = [...new Set(types)];
  if (members.length <= 1) {
    return [`      ${name}: ${members[0] ?? "never"};`];
  }
  return [`      ${name}:`, ...members.map((type, i) => `        | ${type}${i === members.length - 1 ? ";" : ""}`)];
}

/**
 * The body types of the responses whose status passes `wanted`, in the media types `media` accepts. Statuses that
 * share a media type share one lookup, indexed by the union of them: `responses[400 | 404]["content"][...]`.
 */
function responseBodies(
  document: unknown,
  operation: Operation,
  ref: string,
  wanted: (status: string) => boolean,
  media: (type: string) => boolean,
): string[] {
  const statusesByMedia = new Map<string, string[]>();
  let withoutBody = false;
  for (const [status, entry] of Object.entries(operation.responses ?? {})) {
    if (!wanted(status)) {
      continue;
    }
    const types = Object.keys(dereference<MediaMap>(document, entry).content ?? {});
    withoutBody ||= types.length === 0;
    for (const type of types.filter(media)) {
      statusesByMedia.set(type, [...(statusesByMedia.get(type) ?? []), statusKey(status)]);
    }
  }
  const bodies = [...statusesByMedia].map(
    ([type, statuses]) => `${ref}["responses"][${statuses.join(" | ")}]["content"][${JSON.stringify(type)}]`,
  );
  // A response without a body reads as undefined, as openapi-fetch reads it.
  return withoutBody ? [...bodies, "undefined"] : bodies;
}

/** The names of a schema's properties that are arrays, its `allOf` members' included. */
function arrayProperties(document: unknown, node: Schema | Reference | undefined): string[] {
  if (node === undefined) {
    return [];
  }
  const schema = dereference<Schema>(document, node);
  const own = Object.entries(schema.properties ?? {})
    // Exactly an array: a nullable one (`["array", "null"]`) is no page's list of items.
    .filter(([, property]) => [dereference<Schema>(document, property).type].flat().join() === "array")
    .map(([name]) => name);
  return [...own, ...(schema.allOf ?? []).flatMap((member) => arrayProperties(document, member))];
}

/**
 * The element type of a list answer: of the one array property of the JSON success's body. `never` when the
 * operation answers no such page (no JSON, no array, or more than one).
 */
function listItem(document: unknown, operation: Operation, ref: string): string {
  const pages = Object.entries(operation.responses ?? {})
    .filter(([status]) => isSuccess(status))
    .flatMap(([status, response]) =>
      Object.entries(dereference<MediaMap>(document, response).content ?? {})
        .filter(([type]) => isJson(type))
        .map(([type, media]) => ({ at: `${ref}["responses"][${statusKey(status)}]["content"]["${type}"]`, media })),
    );
  const [page] = pages;
  const arrays = page === undefined ? [] : [...new Set(arrayProperties(document, page.media.schema))];
  return pages.length === 1 && page !== undefined && arrays.length === 1
    ? `${page.at}[${JSON.stringify(arrays[0])}][number]`
    : "never";
}

/** One operation's entry: its init (params and body, optional or required as the spec says) and its answers. */
function entry(document: unknown, operation: Operation, parameters: readonly Parameter[]): string[] {
  if (operation.operationId === undefined) {
    throw new Error("Every operation needs an operationId: the table names operations by it.");
  }
  const ref = `operations[${JSON.stringify(operation.operationId)}]`;
  const paramsRequired = parameters.some((parameter) => parameter.required === true);
  const body = operation.requestBody === undefined ? undefined : dereference(document, operation.requestBody);
  const bodyRequired = body?.required === true;
  const bodyMedia = Object.keys(body?.content ?? {})
    .map((type) => JSON.stringify(type))
    .join(" | ");
  const bodyType =
    body === undefined
      ? "body?: never"
      : bodyRequired
        ? `body: ${ref}["requestBody"]["content"][${bodyMedia}]`
        : `body?: NonNullable<${ref}["requestBody"]>["content"][${bodyMedia}]`;
  const successMedia = Object.entries(operation.responses ?? {})
    .filter(([status]) => isSuccess(status))
    .flatMap(([, response]) => Object.keys(dereference<MediaMap>(document, response).content ?? {}));
  // Bytes are the default answer of an operation that has any: a JSON alternative (asked for by `Accept`) aside.
  const download = successMedia.some((media) => !isJson(media));
  return [
    `      operation: ${ref};`,
    `      init: { params${paramsRequired ? "" : "?"}: ${ref}["parameters"]; ${bodyType} };`,
    `      required: ${paramsRequired || bodyRequired};`,
    ...field("data", responseBodies(document, operation, ref, isSuccess, isJson)),
    ...field(
      "error",
      responseBodies(document, operation, ref, isError, () => true),
    ),
    `      item: ${listItem(document, operation, ref)};`,
    `      download: ${download};`,
  ];
}

/**
 * The text of `src/generated/calls.ts` for `document`: the type `calls`, by method then path, importing
 * `operations` from openapi-typescript's output beside it (`./schema.js`).
 */
export function callTable(document: unknown): string {
  const operations = walkOperations<Operation, Parameter>(document, (document as Document).paths as never);
  const lines = [
    "/**",
    " * This file was generated by openapi-call-table from the same bundle as schema.ts.",
    " * Do not make direct changes to the file.",
    " */",
    "",
    'import type { operations } from "./schema.js";',
    "",
    "/**",
    " * Every operation's call types, by method and path: `init` (its params and body), whether the init is `required`,",
    " * the JSON `data` of a success, the `error` bodies, the `item` of a list (the element of the one array of `data`),",
    " * and whether the success is a `download` (bytes, not JSON).",
    " */",
    "export type calls = {",
  ];
  for (const method of CLIENT_METHODS) {
    const ofMethod = operations.filter((found) => found.method === method);
    if (ofMethod.length === 0) {
      lines.push(`  ${method}: {};`);
      continue;
    }
    lines.push(`  ${method}: {`);
    for (const found of ofMethod) {
      lines.push(
        `    ${JSON.stringify(found.path)}: {`,
        ...entry(document, found.operation, found.parameters),
        "    };",
      );
    }
    lines.push("  };");
  }
  lines.push("};", "");
  return lines.join("\n");
}
