import {
  type OperationMethod,
  type ParameterIdentity,
  type ParameterList,
  type PathItem as WalkerPathItem,
  walkOperations,
} from "@pigeonhole/openapi-walker";

/** The few parts of an OpenAPI 3.1 document the docs build reads and writes. */
export interface OpenAPIDocument {
  info: { title: string; version: string; description?: string; [key: string]: unknown };
  paths?: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  [key: string]: unknown;
}

/** A path item: its operations, and the fields (summary, servers, ...) the docs leave to the renderer. */
export type PathItem = WalkerPathItem<Operation, ParameterIdentity> & { [key: string]: unknown };

export interface Operation {
  operationId?: string;
  summary?: string;
  parameters?: ParameterList<ParameterIdentity>;
  "x-codeSamples"?: CodeSample[];
  [key: string]: unknown;
}

/** The `x-codeSamples` entry that reference renderers show as an operation's code example. */
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

export interface OperationEntry {
  operationId: string;
  method: OperationMethod;
  /** The path (`/v0/inboxes`) or, for a webhook, its event name (`message.received`). */
  key: string;
  kind: "path" | "webhook";
  operation: Operation;
}

/** Every operation with an operationId, paths first then webhooks, in document order. */
export function listOperations(document: OpenAPIDocument): OperationEntry[] {
  const collect = (items: Record<string, PathItem> | undefined, kind: OperationEntry["kind"]): OperationEntry[] =>
    walkOperations(document, items).flatMap(({ path, method, operation }) =>
      operation.operationId ? [{ operationId: operation.operationId, method, key: path, kind, operation }] : [],
    );
  return [...collect(document.paths, "path"), ...collect(document.webhooks, "webhook")];
}
