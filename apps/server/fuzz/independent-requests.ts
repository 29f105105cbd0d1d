import type { JsonSchema as FakerSchema } from "json-schema-faker";
import { createGeneratorSync } from "json-schema-faker";
import type { DocumentOperation, JsonSchema, OpenApiDocument } from "../src/spec/spec-bundle.ts";
import { documentOperations, resolvePointer } from "../src/spec/spec-bundle.ts";
import { PoolReference } from "./draft-values.ts";
import type { IdPool } from "./id-pool.ts";
import { templatePattern } from "./spec-operations.ts";

/** One request drawn from a spec by json-schema-faker, ready to send. */
export interface IndependentRequest {
  operationId: string;
  method: string;
  /** The spec's path template, such as `/v0/inboxes/{inbox_id}`. */
  specPath: string;
  url: URL;
  /** The path parameters as sent, decoded. */
  pathValues: Record<string, string>;
  headers: Headers;
  bodyText: string | undefined;
  /** Whether the URL still names the operation once normalised (a `..` value leads elsewhere). */
  routed: boolean;
  /** The part replaced by a value its schema refuses, or null when every part was drawn from its schema. */
  broken: string | null;
}

export interface IndependentRequestSetting {
  document: OpenApiDocument;
  baseUrl: string;
  seed: number;
  /** Ids seen in earlier answers: path parameters draw from it, so that requests reach existing resources. */
  pool: IdPool;
}

/** Every fourth round of the operations sends one part its schema refuses. */
const BROKEN_ROUND = 4;
/** Out of four path parameters, three name an id seen in an answer (when there is one), one a drawn value. */
const POOL_SHARE = 3;

/**
 * Webhook addresses point at a closed loopback port: whatever the generator draws for `format: uri`, the server
 * never calls a host off this machine.
 */
const loopbackUri = (random: { int(min: number, max: number): number }) =>
  `http://127.0.0.1:9/${random.int(0, 1_000_000).toString(36)}`;

/**
 * Requests for every operation of a bundled spec, in turn, each part drawn by json-schema-faker from its schema
 * (`$ref`s followed in the document) with a fixed seed: the same seed and the same answers draw the same requests.
 * Path parameters mostly name ids from earlier answers; every fourth round breaks one part with a value drawn from
 * the negation of its schema.
 */
export function createIndependentRequests(setting: IndependentRequestSetting) {
  const { document, pool } = setting;
  const faker = createGeneratorSync({
    seed: setting.seed,
    refResolver: (ref) => resolvePointer(document, ref) as FakerSchema,
    formats: { uri: loopbackUri },
    maxDefaultItems: 3,
  });
  const draw = (schema: JsonSchema): unknown => faker.generate(schema as FakerSchema);
  const below = (count: number): number => draw({ type: "integer", minimum: 0, maximum: count - 1 }) as number;
  const operations = documentOperations(document);

  function pathValue(operation: DocumentOperation, name: string, schema: JsonSchema, chosen: Record<string, string>) {
    if (below(POOL_SHARE + 1) < POOL_SHARE) {
      const known = pool.resolveAlong(new PoolReference(name, below(1_000), "own"), chosen);
      if (known !== undefined) {
        chosen[name] = known;
        return known;
      }
    }
    return text(draw(schema), `${operation.operation.operationId} ${name}`);
  }

  return {
    operationCount: operations.length,
    /** The `index`th request: operations in turn, round after round. */
    next(index: number): IndependentRequest {
      const operation = operations[index % operations.length] as DocumentOperation;
      const parts = requestParts(operation);
      const broken = Math.floor(index / operations.length) % BROKEN_ROUND === BROKEN_ROUND - 1 && parts.length > 0;
      const target = broken ? parts[below(parts.length)] : undefined;
      const drawPart = (part: RequestPart) => (part === target ? draw({ not: part.schema }) : draw(part.schema));

      const chosen: Record<string, string> = {};
      const pathValues: Record<string, string> = {};
      let path = operation.path;
      // The innermost id first, and its parents along with it (a message, then the inbox that holds it).
      for (const parameter of operation.parameters.filter((p) => p.in === "path").reverse()) {
        const part = parts.find((candidate) => candidate.name === parameter.name && candidate.in === "path");
        const value =
          part === target
            ? text(drawPart(part as RequestPart), parameter.name)
            : pathValue(operation, parameter.name, parameter.schema, chosen);
        pathValues[parameter.name] = value;
        path = path.replace(`{${parameter.name}}`, encodeURIComponent(value));
      }
      const url = new URL(`${setting.baseUrl}${path}`);
      const headers = new Headers();
      for (const part of parts.filter((candidate) => candidate.in === "query" || candidate.in === "header")) {
        if (!part.required && part !== target && below(2) === 0) {
          continue;
        }
        const value = drawPart(part);
        for (const item of Array.isArray(value) ? value : [value]) {
          if (part.in === "query") {
            url.searchParams.append(part.name, text(item, part.name));
          } else {
            headers.append(part.name, text(item, part.name).replace(/[\r\n]/g, " "));
          }
        }
      }
      let bodyText: string | undefined;
      const body = parts.find((part) => part.in === "body");
      if (body !== undefined && (body.required || below(8) > 0)) {
        bodyText = JSON.stringify(drawPart(body));
        headers.set("Content-Type", "application/json");
      }
      return {
        operationId: operation.operation.operationId,
        method: operation.method.toUpperCase(),
        specPath: operation.path,
        url,
        pathValues,
        headers,
        bodyText,
        routed: templatePattern(operation.path).test(url.pathname),
        broken: target === undefined ? null : `${target.in} ${target.name}`,
      };
    },
  };
}

interface RequestPart {
  in: "path" | "query" | "header" | "body";
  name: string;
  required: boolean;
  schema: JsonSchema;
}

function requestParts(operation: DocumentOperation): RequestPart[] {
  const parts: RequestPart[] = operation.parameters
    .filter((parameter) => parameter.in !== "cookie")
    .map((parameter) => ({
      in: parameter.in as RequestPart["in"],
      name: parameter.name,
      required: parameter.required ?? false,
      schema: parameter.schema,
    }));
  const json = operation.operation.requestBody?.content["application/json"];
  if (json !== undefined) {
    parts.push({
      in: "body",
      name: "body",
      required: operation.operation.requestBody?.required ?? false,
      schema: json.schema,
    });
  }
  return parts;
}

/** A drawn value as a path, query or header text. */
function text(value: unknown, _where: string): string {
  if (typeof value === "string") {
    return value;
  }
  return typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value);
}
