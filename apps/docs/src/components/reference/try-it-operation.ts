import { dereference, OPERATION_METHODS, type OperationMethod } from "@pigeonhole/openapi-walker";
import type { ReferenceSpec } from "../../lib/reference-specs.ts";

/**
 * The development keys the local server (`pigeonhole-server` with no options) accepts, one per API: the panel starts
 * with them so that a reader running the server locally sends a first request without copying anything.
 */
export const DEVELOPMENT_KEYS: Readonly<Record<ReferenceSpec["api"], string>> = {
  inbox: "pigeonhole-inbox-dev",
  forum: "pigeonhole-forum-dev",
  "test-control": "pigeonhole-test-control-dev",
};

export type FieldLocation = "path" | "query" | "header";

/** One input of the panel: a path, query or header parameter of the operation. */
export interface TryItField {
  name: string;
  in: FieldLocation;
  required: boolean;
  /** Prefilled value of a path parameter (its example); query and header fields start empty. */
  value: string;
  /** Shown as the placeholder of an empty field. */
  example: string;
}

/** What the panel of one operation page needs to send its request. */
export interface TryItOperation {
  method: Uppercase<OperationMethod>;
  path: string;
  fields: TryItField[];
  /** The JSON body the panel starts with (the operation's first request example), or undefined without a body. */
  body: string | undefined;
  bodyRequired: boolean;
  /** False for an operation anyone may call (`security: []`): the panel then sends no key. */
  sendsKey: boolean;
  defaultBaseUrl: string;
  defaultKey: string;
}

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolve(document: Node, value: unknown): Node | undefined {
  const node = dereference<unknown>(document, value as Node);
  return isNode(node) ? node : undefined;
}

function exampleText(value: unknown): string {
  if (value === undefined || value === null) {
    return "";
  }
  return typeof value === "string" ? value : JSON.stringify(value);
}

function firstExample(document: Node, holder: Node): unknown {
  if (holder.example !== undefined) {
    return holder.example;
  }
  if (isNode(holder.examples)) {
    const first = Object.values(holder.examples)[0];
    return resolve(document, first)?.value;
  }
  const schema = resolve(document, holder.schema);
  const examples = schema?.examples;
  return Array.isArray(examples) ? examples[0] : schema?.example;
}

function readFields(document: Node, pathItem: Node, operation: Node): TryItField[] {
  const byKey = new Map<string, TryItField>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    for (const raw of Array.isArray(list) ? list : []) {
      const parameter = resolve(document, raw);
      const location = parameter?.in;
      if (!parameter || typeof parameter.name !== "string") {
        continue;
      }
      if (location !== "path" && location !== "query" && location !== "header") {
        continue;
      }
      const example = exampleText(firstExample(document, parameter));
      byKey.set(`${location}:${parameter.name}`, {
        name: parameter.name,
        in: location,
        required: parameter.required === true,
        value: location === "path" ? example : "",
        example,
      });
    }
  }
  return [...byKey.values()];
}

function readBody(document: Node, operation: Node): { body: string | undefined; bodyRequired: boolean } {
  const requestBody = resolve(document, operation.requestBody);
  const json =
    requestBody && isNode(requestBody.content) ? resolve(document, requestBody.content["application/json"]) : undefined;
  if (!requestBody || !json) {
    return { body: undefined, bodyRequired: false };
  }
  const example = firstExample(document, json);
  return {
    body: example === undefined ? "{}" : JSON.stringify(example, null, 2),
    bodyRequired: requestBody.required === true,
  };
}

/** The operation whose page has this slug (its operationId in lower case), with what the panel needs; or undefined. */
export function findTryItOperation(
  document: Node,
  spec: Pick<ReferenceSpec, "api">,
  slug: string,
): TryItOperation | undefined {
  const paths = isNode(document.paths) ? document.paths : {};
  const servers = Array.isArray(document.servers) ? document.servers : [];
  const defaultBaseUrl = isNode(servers[0]) && typeof servers[0].url === "string" ? servers[0].url : "";
  for (const [path, rawItem] of Object.entries(paths)) {
    const pathItem = resolve(document, rawItem);
    for (const method of OPERATION_METHODS) {
      const operation = pathItem && resolve(document, pathItem[method]);
      if (!pathItem || !operation || String(operation.operationId).toLowerCase() !== slug) {
        continue;
      }
      return {
        method: method.toUpperCase() as Uppercase<OperationMethod>,
        path,
        fields: readFields(document, pathItem, operation),
        ...readBody(document, operation),
        sendsKey: !(Array.isArray(operation.security) && operation.security.length === 0),
        defaultBaseUrl,
        defaultKey: DEVELOPMENT_KEYS[spec.api],
      };
    }
  }
  return undefined;
}
