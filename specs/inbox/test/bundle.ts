// The helpers of `specs/testing/bundle.ts`, bound to this API's bundle (`dist/openapi.json`; run `pnpm bundle` first).
import { loadBundle } from "@pigeonhole/spec-testing/bundle";

export { isObject, type Json, type JsonObject, methods, type Operation, refOf } from "@pigeonhole/spec-testing/bundle";

export const {
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
} = loadBundle(new URL("../dist/openapi.json", import.meta.url));
