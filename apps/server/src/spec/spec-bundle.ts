import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

import {
  type PathItem as OpenApiPathItem,
  type OperationMethod,
  type Reference,
  type WalkedOperation,
  walkOperations,
} from "./openapi-walker.ts";

export { dereference, pointerSegment, resolvePointer } from "./openapi-walker.ts";

import type { ServiceName } from "../service-name.ts";

export type { ServiceName };

/** The parts of an OpenAPI 3.1 document the server reads. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, PathItem>;
  components?: Record<string, Record<string, unknown>>;
}

export type HttpMethod = OperationMethod;

export type PathItem = OpenApiPathItem<OperationObject, ParameterObject>;

export interface OperationObject {
  operationId: string;
  /** `[]` marks an operation anyone may call without a key; absent, the document's security applies. */
  security?: unknown[];
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

export type ParameterOrRef = ParameterObject | Reference;
export type JsonSchema = Record<string, unknown>;

/** One operation of a bundled spec, with the parameters of its path item merged in and resolved. */
export type DocumentOperation = WalkedOperation<OperationObject, ParameterObject>;

/**
 * The bundled spec of a service, or of test control. The published package carries copies in `dist/specs/` (see
 * `scripts/ship-spec-layer.ts`); running from source, the workspace's spec package provides them.
 */
export function loadSpecBundle(name: ServiceName | "test-control"): OpenApiDocument {
  const copied = fileURLToPath(new URL(`../specs/${name}.openapi.json`, import.meta.url));
  const file = existsSync(copied)
    ? copied
    : createRequire(import.meta.url).resolve(`@pigeonhole/${name}-spec/openapi.json`);
  return JSON.parse(readFileSync(file, "utf8")) as OpenApiDocument;
}

/** Every operation under `paths` of a bundled spec, in document order. */
export function documentOperations(document: OpenApiDocument): DocumentOperation[] {
  return walkOperations(document, document.paths);
}
