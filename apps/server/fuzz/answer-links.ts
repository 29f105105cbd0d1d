import type { FuzzOperation } from "./spec-operations.ts";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A path template as a pattern that captures each parameter's segment, in order, with the parameters' names. */
function capturingPattern(template: string): { pattern: RegExp; names: string[] } {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? "");
  const pattern = new RegExp(
    `^${template
      .split(/\{[^}]+\}/)
      .map(escapeRegExp)
      .join("([^/]+)")}$`,
  );
  return { pattern, names };
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Reads the links an answer gives back to the service (a download's `download_url`): per link to one of the
 * service's own operations, the values of the path parameters it names (the `token` a download link carries), so
 * that later requests use what the service itself handed out. Words choosing a collection are left out, as no ids.
 */
export function createLinkReader(baseUrl: string, operations: readonly FuzzOperation[]) {
  const origin = new URL(baseUrl).origin;
  const templates = operations
    .filter((operation) => operation.method === "GET" && operation.pathParameters.length > 0)
    .map((operation) => ({ ...capturingPattern(operation.path), words: new Set(operation.enumPathParameters) }));

  function parametersOf(link: string): Record<string, string> | null {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      return null;
    }
    if (url.origin !== origin) {
      return null;
    }
    for (const { pattern, names, words } of templates) {
      const match = pattern.exec(url.pathname);
      if (match === null) {
        continue;
      }
      const named: Record<string, string> = {};
      names.forEach((name, index) => {
        const value = decodeSegment(match[index + 1] ?? "");
        if (value !== undefined && !words.has(name)) {
          named[name] = value;
        }
      });
      return named;
    }
    return null;
  }

  /** The parameters of every link (a string field named `..._url`) anywhere in `answer`. */
  return function linkedParameters(answer: unknown): Record<string, string>[] {
    const found: Record<string, string>[] = [];
    const visit = (node: unknown, depth: number) => {
      if (node === null || typeof node !== "object" || ArrayBuffer.isView(node) || depth > 8) {
        return;
      }
      for (const [key, value] of Object.entries(node)) {
        const named = typeof value === "string" && key.endsWith("_url") ? parametersOf(value) : null;
        if (named !== null) {
          found.push(named);
        } else {
          visit(value, depth + 1);
        }
      }
    };
    visit(answer, 0);
    return found;
  };
}
