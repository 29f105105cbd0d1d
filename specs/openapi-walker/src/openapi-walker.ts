// Walks a bundled OpenAPI 3.1 document. The spec tests, the server (request validation, fuzzing) and the docs
// (reference pages) read operations through this one module, so they agree on what an operation is: the same
// methods, the same parameter merging, the same reference rules.
//
// It belongs to the spec layer, beside the bundles it reads, so the spec tests use it without reaching into an app.
// It has no dependencies: the published server carries a compiled copy in its dist, as it carries the bundles.

/** The keys a path item holds operations under, in the order the OpenAPI specification lists them. */
export const OPERATION_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type OperationMethod = (typeof OPERATION_METHODS)[number];

/** A reference to another part of the same document. */
export interface Reference {
  $ref: string;
}

/** What identifies a parameter: two parameters with one name in one location are the same parameter. */
export interface ParameterIdentity {
  name: string;
  in: string;
}

/** The parameters a path item or an operation declares, each inline or a reference. */
export type ParameterList<Parameter> = readonly (Parameter | Reference)[];

/** An operation, as far as the walker reads it: it may declare parameters of its own. */
export interface OperationWithParameters<Parameter> {
  parameters?: ParameterList<Parameter>;
}

/** A path item (or a webhook) of a document whose operations are `Operation` and parameters `Parameter`. */
export type PathItem<Operation, Parameter> = { parameters?: ParameterList<Parameter> } & {
  [Method in OperationMethod]?: Operation;
};

/** A map of path items: a document's `paths`, or its `webhooks`. */
export type PathMap<Operation, Parameter> = Readonly<Record<string, PathItem<Operation, Parameter> | Reference>>;

/** One operation of a path map. */
export interface WalkedOperation<Operation, Parameter> {
  /** The key in the path map: a path template such as `/v0/inboxes/{inbox_id}`, or a webhook's name. */
  path: string;
  method: OperationMethod;
  operation: Operation;
  /**
   * The parameters of the path item and of the operation, references resolved, path item's first. As OpenAPI
   * says, an operation's parameter replaces the path item's parameter of the same name and location.
   */
  parameters: Parameter[];
}

export function isReference(node: unknown): node is Reference {
  return typeof node === "object" && node !== null && typeof (node as Partial<Reference>).$ref === "string";
}

/** Escapes one key for use in a JSON pointer. */
export const pointerSegment = (key: string): string => key.replaceAll("~", "~0").replaceAll("/", "~1");

/** The node a local JSON pointer (`#/components/schemas/Inbox`) names in the document. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  if (!pointer.startsWith("#/")) {
    throw new Error(`Only local references are supported, not ${pointer}.`);
  }
  let node: unknown = document;
  for (const segment of pointer.slice(2).split("/")) {
    const key = segment.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) {
      throw new Error(`Reference ${pointer} does not resolve.`);
    }
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * Follows references from `node` until it reaches one that is no reference (sibling keywords of a `$ref` are
 * dropped). The target is taken to be what the document's type says stands there.
 */
export function dereference<Target>(document: unknown, node: Target | Reference): Target {
  let current: unknown = node;
  const seen = new Set<string>();
  while (isReference(current)) {
    if (seen.has(current.$ref)) {
      throw new Error(`Reference ${current.$ref} refers to itself.`);
    }
    seen.add(current.$ref);
    current = resolvePointer(document, current.$ref);
  }
  return current as Target;
}

function resolveParameter<Parameter extends ParameterIdentity>(
  document: unknown,
  entry: Parameter | Reference,
): Parameter {
  const parameter = dereference(document, entry);
  if (typeof parameter?.name !== "string" || typeof parameter.in !== "string") {
    throw new Error(`A parameter needs a name and a location: ${JSON.stringify(entry)}.`);
  }
  return parameter;
}

/** The merged, resolved parameters of one operation of a path item. */
function mergeParameters<Parameter extends ParameterIdentity>(
  document: unknown,
  ...lists: (ParameterList<Parameter> | undefined)[]
): Parameter[] {
  const byIdentity = new Map<string, Parameter>();
  for (const entry of lists.flatMap((list) => list ?? [])) {
    const parameter = resolveParameter(document, entry);
    byIdentity.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...byIdentity.values()];
}

/** Every operation of a path map (a document's `paths` or `webhooks`), in document order. */
export function walkOperations<
  Operation extends OperationWithParameters<Parameter>,
  Parameter extends ParameterIdentity,
>(document: unknown, pathMap: PathMap<Operation, Parameter> | undefined): WalkedOperation<Operation, Parameter>[] {
  const found: WalkedOperation<Operation, Parameter>[] = [];
  for (const [path, entry] of Object.entries(pathMap ?? {})) {
    const item = dereference(document, entry);
    for (const method of OPERATION_METHODS) {
      const operation = item[method];
      if (operation !== undefined) {
        const parameters = mergeParameters(document, item.parameters, operation.parameters);
        found.push({ path, method, operation, parameters });
      }
    }
  }
  return found;
}
