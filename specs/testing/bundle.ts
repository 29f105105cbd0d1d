// Lookups over a bundled spec (`<api>/dist/openapi.json`) for the tests of both APIs, built on the OpenAPI walker that
// the server and the docs use too, so the tests read operations exactly as they do.
import { readFileSync } from "node:fs";
import {
  dereference,
  type OperationWithParameters,
  type ParameterIdentity,
  type PathMap,
  walkOperations,
} from "@pigeonhole/openapi-walker";

/** A JSON value of a bundled spec. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
type Key = string | number;

/** An operation of a path map, as plain JSON for the tests to check. */
export interface Operation {
  method: string;
  path: string;
  operation: JsonObject;
  /** Parameters of the path item and of the operation, resolved. */
  parameters: JsonObject[];
}

// How the walker is told that a path map of JSON holds operations and parameters; it checks what it relies on.
type JsonParameter = JsonObject & ParameterIdentity;
type JsonOperation = JsonObject & OperationWithParameters<JsonParameter>;

export function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `$ref` of a node without resolving it (undefined when the node is no reference). */
export function refOf(node: Json | undefined): string | undefined {
  return isObject(node) && typeof node.$ref === "string" ? node.$ref : undefined;
}

function child(node: Json | undefined, key: Key): Json | undefined {
  if (typeof key === "number") {
    return Array.isArray(node) ? node[key] : undefined;
  }
  return isObject(node) ? node[key] : undefined;
}

/** Reads the bundle at `url` and returns the helpers that walk it. */
export function loadBundle(url: URL) {
  const spec = JSON.parse(readFileSync(url, "utf8")) as JsonObject;

  /** Follows local `$ref`s (`#/components/...`) until the node is no reference; sibling keywords are dropped. */
  function resolve(node: Json | undefined): Json | undefined {
    return dereference(spec, node);
  }

  /** Walks `keys` down from `node`, resolving references on the way; throws when a key is missing. */
  function at(node: Json, ...keys: Key[]): Json {
    let current = resolve(node);
    for (const [index, key] of keys.entries()) {
      const next = child(current, key);
      if (next === undefined) {
        throw new Error(`missing: ${keys.slice(0, index + 1).join(" > ")}`);
      }
      current = resolve(next);
    }
    return current as Json;
  }

  /** Like `at`, but the result must be an object. */
  function obj(node: Json, ...keys: Key[]): JsonObject {
    const value = at(node, ...keys);
    if (!isObject(value)) {
      throw new Error(`not an object: ${keys.join(" > ")}`);
    }
    return value;
  }

  /** Like `at`, but the result must be an array. */
  function arr(node: Json, ...keys: Key[]): Json[] {
    const value = at(node, ...keys);
    if (!Array.isArray(value)) {
      throw new Error(`not an array: ${keys.join(" > ")}`);
    }
    return value;
  }

  /** Like `at`, but the result must be a string. */
  function str(node: Json, ...keys: Key[]): string {
    const value = at(node, ...keys);
    if (typeof value !== "string") {
      throw new Error(`not a string: ${keys.join(" > ")}`);
    }
    return value;
  }

  /** The `$ref` found at `keys` under `node` (references resolved up to, not including, the last key). */
  function refAt(node: Json, ...keys: Key[]): string | undefined {
    const last = keys[keys.length - 1];
    return last === undefined ? refOf(node) : refOf(child(at(node, ...keys.slice(0, -1)), last));
  }

  /** A named schema of the bundle. */
  function schema(name: string): JsonObject {
    return obj(spec, "components", "schemas", name);
  }

  /** One property schema of a named schema, references resolved. */
  function property(schemaName: string, name: string): JsonObject {
    return obj(schema(schemaName), "properties", name);
  }

  /** The sorted `required` list of a named schema. */
  function required(schemaName: string): string[] {
    const list = schema(schemaName).required;
    return Array.isArray(list) ? list.map(String).sort() : [];
  }

  /** The sorted property names of a named schema. */
  function propertyNames(schemaName: string): string[] {
    return Object.keys(obj(schema(schemaName), "properties")).sort();
  }

  /** Every operation of `paths`, or of another path map such as `webhooks`. */
  function operationsOf(pathMap: JsonObject): Operation[] {
    return walkOperations(spec, pathMap as PathMap<JsonOperation, JsonParameter>);
  }

  /** Every operation of the bundle's `paths`. */
  function operations(): Operation[] {
    return operationsOf(obj(spec, "paths"));
  }

  /** The operation with this operationId. */
  function operation(operationId: string): Operation {
    const match = operations().find((op) => op.operation.operationId === operationId);
    if (match === undefined) {
      throw new Error(`no operation ${operationId}`);
    }
    return match;
  }

  /** A response of an operation, resolved. */
  function response(operationId: string, status: string): JsonObject {
    return obj(operation(operationId).operation, "responses", status);
  }

  /** A parameter of an operation (path level included), by name. */
  function parameter(operationId: string, name: string): JsonObject {
    const match = operation(operationId).parameters.find((p) => p.name === name);
    if (match === undefined) {
      throw new Error(`${operationId} has no parameter ${name}`);
    }
    return match;
  }

  /** The name of the schema (`#/components/schemas/<name>`) a response or request body refers to. */
  function bodySchemaName(body: JsonObject): string {
    const ref = refOf(obj(body, "content", "application/json").schema);
    if (ref === undefined) {
      throw new Error("body schema is not a named schema");
    }
    return ref.replace("#/components/schemas/", "");
  }

  /** The values of the named examples of a body's JSON media type. */
  function exampleValues(body: JsonObject): Json[] {
    const examples = obj(body, "content", "application/json", "examples");
    return Object.keys(examples).map((name) => at(examples, name, "value"));
  }

  return {
    spec,
    resolve,
    at,
    obj,
    arr,
    str,
    refAt,
    schema,
    property,
    required,
    propertyNames,
    operationsOf,
    operations,
    operation,
    response,
    parameter,
    bodySchemaName,
    exampleValues,
  };
}
