import { compileSpecOperations } from "../src/spec/request-validator.ts";
import type { ServiceModel } from "./spec-operations.ts";

/** A request as sent, in the terms the spec speaks of. */
export interface RequestFacts {
  operationId: string;
  /** Decoded path parameters. */
  path: Record<string, string>;
  /** Decoded query parameters; a repeated one is a list. */
  query: Record<string, string | string[]>;
  headers: Headers;
  bodyText: string | undefined;
}

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Judges requests by the bundled spec alone: why the spec refuses a request, or null when it takes it. Bodies must
 * be JSON sent as JSON; parameters are judged as query strings are (text coerced to the declared type).
 */
export function createSpecOracle(model: ServiceModel): (request: RequestFacts) => string | null {
  const operations = new Map(
    compileSpecOperations(model.document, `${model.service}-oracle`).map((operation) => [
      operation.operationId,
      operation,
    ]),
  );
  return (request) => {
    const operation = operations.get(request.operationId);
    if (!operation) {
      throw new Error(`No operation ${request.operationId} in the ${model.service} spec.`);
    }
    let body: unknown;
    if (request.bodyText !== undefined && request.bodyText !== "") {
      if (!JSON_MEDIA_TYPE.test(request.headers.get("content-type") ?? "")) {
        return "a body not sent as application/json";
      }
      try {
        // RFC 8259 (section 8.1) lets a parser ignore a leading byte order mark, as the service's text decoding does.
        body = JSON.parse(request.bodyText.replace(/^\ufeff/, ""));
      } catch {
        return "a body that is not JSON";
      }
    }
    const result = operation.validate({
      path: request.path,
      query: request.query,
      header: (name) => request.headers.get(name) ?? undefined,
      body,
    });
    return result.ok ? null : `${result.issue.location} ${result.issue.field ?? ""}: ${result.issue.message}`;
  };
}
