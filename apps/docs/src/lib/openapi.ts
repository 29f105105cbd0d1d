/** The few parts of an OpenAPI 3.1 document the docs build reads and writes. */
export interface OpenAPIDocument {
  info: { title: string; version: string };
  paths?: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  [key: string]: unknown;
}

export type PathItem = Record<string, unknown>;

export interface Operation {
  operationId?: string;
  summary?: string;
  "x-codeSamples"?: CodeSample[];
  [key: string]: unknown;
}

/** The `x-codeSamples` entry that reference renderers show as an operation's code example. */
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export interface OperationEntry {
  operationId: string;
  method: (typeof HTTP_METHODS)[number];
  /** The path (`/v0/inboxes`) or, for a webhook, its event name (`message.received`). */
  key: string;
  kind: "path" | "webhook";
  operation: Operation;
}

/** Every operation with an operationId, paths first then webhooks, in document order. */
export function listOperations(document: OpenAPIDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  const collect = (items: Record<string, PathItem> | undefined, kind: OperationEntry["kind"]) => {
    for (const [key, item] of Object.entries(items ?? {})) {
      for (const method of HTTP_METHODS) {
        const operation = item[method] as Operation | undefined;
        if (operation?.operationId) {
          entries.push({ operationId: operation.operationId, method, key, kind, operation });
        }
      }
    }
  };
  collect(document.paths, "path");
  collect(document.webhooks, "webhook");
  return entries;
}
