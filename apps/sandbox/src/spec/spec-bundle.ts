import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export type ServiceSpecName = "inbox" | "forum";

/** The parts of an OpenAPI 3.1 document the sandbox reads. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, PathItem>;
  components?: Record<string, Record<string, unknown>>;
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItem = { parameters?: ParameterOrRef[] } & { [M in HttpMethod]?: OperationObject };

export interface OperationObject {
  operationId: string;
  parameters?: ParameterOrRef[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
}

export interface ParameterObject {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema: JsonSchema;
}

export type ParameterOrRef = ParameterObject | { $ref: string };
export type JsonSchema = Record<string, unknown>;

/**
 * The bundled spec of a service. The published package carries copies in `dist/specs/` (see
 * `scripts/copy-spec-bundles.ts`); running from source, the workspace's spec package provides them.
 */
export function loadSpecBundle(name: ServiceSpecName): OpenApiDocument {
  const copied = fileURLToPath(new URL(`../specs/${name}.openapi.json`, import.meta.url));
  const file = existsSync(copied)
    ? copied
    : createRequire(import.meta.url).resolve(`@pigeonhole/${name}-spec/openapi.json`);
  return JSON.parse(readFileSync(file, "utf8")) as OpenApiDocument;
}

/** Follows a local `#/...` JSON pointer inside the document. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) {
    throw new Error(`Only local references are supported, not ${ref}.`);
  }
  let node: unknown = document;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !(key in node)) {
      throw new Error(`Reference ${ref} does not resolve.`);
    }
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

export function resolveParameter(document: OpenApiDocument, parameter: ParameterOrRef): ParameterObject {
  return "$ref" in parameter ? (resolvePointer(document, parameter.$ref) as ParameterObject) : parameter;
}

/** Escapes a key for use in a JSON pointer. */
export const pointerSegment = (key: string): string => key.replaceAll("~", "~0").replaceAll("/", "~1");
