import type { JsonSchema, OpenApiDocument, ParameterObject, ServiceName } from "../src/spec/spec-bundle.ts";
import { documentOperations, loadSpecBundle } from "../src/spec/spec-bundle.ts";

/** How a resource made by a create operation is found again. */
export type ReadBack =
  /** `GET {path}` with `parameter` taken from the created resource (`post_id` from its `id`, `community_name` from its `name`). */
  | { kind: "item"; path: string; parameter: string }
  /** The resource appears in the list at `GET {path}` (same path as the create). */
  | { kind: "list"; path: string }
  /** A registration: `GET {path}`, sent with the API key the answer carries, answers the registered resource. */
  | { kind: "caller"; path: string };

/** One operation of a bundled spec, as the fuzzer drives it. */
export interface FuzzOperation {
  service: ServiceName;
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  /** The spec's path template, such as `/v0/inboxes/{inbox_id}`. */
  path: string;
  pathParameters: ParameterObject[];
  /**
   * Path parameters that take one of a fixed set of words (`/lists/{direction}/{type}`): they choose a collection, they
   * are no ids, so no value of theirs is ever "issued" and none names something missing.
   */
  enumPathParameters: string[];
  queryParameters: ParameterObject[];
  headerParameters: ParameterObject[];
  body: { schema: JsonSchema; required: boolean } | null;
  /** Every method the spec gives this path, upper case. */
  pathMethods: string[];
  /** Whether anyone may call it without a key (the spec gives it `security: []`). */
  public: boolean;
  /** Set when a 2xx answer means a resource was created that must then be readable. */
  readBack: ReadBack | null;
  /**
   * The media types its success answers in, where it documents more than one (bytes, or JSON for a request that asks
   * for it): a request may ask for any of them with `Accept`.
   */
  answerMediaTypes: string[];
}

export interface ServiceModel {
  service: ServiceName;
  document: OpenApiDocument;
  operations: FuzzOperation[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A path template as a pattern over URL paths; a parameter is one non-empty segment. */
export const templatePattern = (template: string): RegExp =>
  new RegExp(
    `^${template
      .split(/\{[^}]+\}/)
      .map(escapeRegExp)
      .join("[^/]+")}$`,
  );

/**
 * Reads every operation of a service's bundled spec. Create operations are recognised from the spec's shape alone:
 * a POST whose path also has a GET (a list), or whose path followed by one `{parameter}` has a GET (the item). A POST
 * anyone may call is a registration, read back with the key it answers at the GET without parameters beside it
 * (`/agents/register`, then `/agents/me`).
 */
export function loadServiceModel(service: ServiceName): ServiceModel {
  const document = loadSpecBundle(service);
  const walked = documentOperations(document);
  const getPaths = walked.filter(({ method }) => method === "get").map(({ path }) => path);
  const operations = walked.map(({ path, method, operation, parameters }): FuzzOperation => {
    const jsonBody = operation.requestBody?.content["application/json"];
    const open = Array.isArray(operation.security) && operation.security.length === 0;
    return {
      service,
      operationId: operation.operationId,
      method: method.toUpperCase(),
      path,
      pathParameters: parameters.filter((p) => p.in === "path"),
      enumPathParameters: parameters
        .filter((p) => p.in === "path" && Array.isArray(dereference(document, p.schema).enum))
        .map((p) => p.name),
      queryParameters: parameters.filter((p) => p.in === "query"),
      headerParameters: parameters.filter((p) => p.in === "header"),
      body: jsonBody ? { schema: jsonBody.schema, required: operation.requestBody?.required ?? false } : null,
      pathMethods: walked.filter((other) => other.path === path).map((other) => other.method.toUpperCase()),
      public: open,
      readBack: method !== "post" ? null : open ? registrationReadBack(path, getPaths) : readBackOf(path, getPaths),
      answerMediaTypes: successMediaTypes(document, operation.responses),
    };
  });
  return { service, document, operations };
}

/** A schema with its `$ref`s followed to what they name. */
function dereference(document: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === "string" && hops < 20; hops++) {
    let target: unknown = document;
    for (const part of current.$ref.replace(/^#\//, "").split("/")) {
      target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    }
    current = (target ?? {}) as JsonSchema;
  }
  return current;
}

/** The media types of an operation's 2xx answers, when there is more than one to choose from. */
function successMediaTypes(document: OpenApiDocument, responses: Record<string, unknown>): string[] {
  const types = new Set<string>();
  for (const [status, response] of Object.entries(responses)) {
    if (/^2\d\d$/.test(status)) {
      const content = (dereference(document, response as JsonSchema).content ?? {}) as Record<string, unknown>;
      for (const type of Object.keys(content)) {
        types.add(type);
      }
    }
  }
  return types.size > 1 ? [...types] : [];
}

function readBackOf(path: string, getPaths: string[]): ReadBack | null {
  for (const candidate of getPaths) {
    const parameter = /^\{([^}]+)\}$/.exec(candidate.slice(path.length + 1))?.[1];
    if (candidate.startsWith(`${path}/`) && parameter) {
      return { kind: "item", path: candidate, parameter };
    }
  }
  return getPaths.includes(path) ? { kind: "list", path } : null;
}

function registrationReadBack(path: string, getPaths: string[]): ReadBack | null {
  const folder = path.slice(0, path.lastIndexOf("/") + 1);
  const beside = getPaths.find(
    (candidate) =>
      candidate.startsWith(folder) && !candidate.slice(folder.length).includes("/") && !candidate.includes("{"),
  );
  return beside === undefined ? null : { kind: "caller", path: beside };
}
