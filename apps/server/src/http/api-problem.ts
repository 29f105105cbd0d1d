import type { IssueCode, ValidationIssue } from "../spec/validation-issue.ts";

/**
 * Codes of the problems the shared HTTP layer raises for either service: a request it cannot read, validate,
 * authenticate or route, a limit it hits, and a failure of the server's own. Each service adds its own codes beside
 * its error formatter; a service's problems carry only the codes of that service.
 */
export type HttpProblemCode =
  | IssueCode
  | "INVALID_JSON"
  | "MISSING_API_KEY"
  | "INVALID_API_KEY"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "RATE_LIMIT_EXCEEDED"
  | "INTERNAL_ERROR";

export type ProblemStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 429 | 500;

export interface ProblemDetails {
  /** The offending field, parameter or header; null when the problem is not about one field. */
  field?: string | null;
  /** How to fix the request (the forum envelope's `hint`). */
  hint?: string;
  /** Seconds to wait, for 429 answers (sent as `Retry-After`). */
  retryAfterSeconds?: number;
  /** Extra response headers, such as `Allow` on a wrong method. */
  headers?: Record<string, string>;
}

/**
 * An error answer a request deserves: thrown anywhere in a request, and turned into the service's envelope. `Code`
 * is the vocabulary of the service raising it; it is never inferred from the code given, so a problem built
 * without naming a service's vocabulary can carry only the HTTP layer's codes.
 */
export class ApiProblem<Code extends string = HttpProblemCode> extends Error {
  override name = "ApiProblem";
  readonly status: ProblemStatus;
  readonly code: Code | HttpProblemCode;
  readonly details: ProblemDetails;

  constructor(
    status: ProblemStatus,
    code: NoInfer<Code> | HttpProblemCode,
    message: string,
    details: ProblemDetails = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    // A conflict answers the same on every retry; the spec's Conflict response tells retrying clients so.
    this.details =
      status === 409 ? { ...details, headers: { "X-Should-Retry": "false", ...details.headers } } : details;
  }

  /** The 400 answer to a request that failed validation, under the issue's code unless a service refines it. */
  static fromIssue<Code extends string>(issue: ValidationIssue, code: Code | IssueCode = issue.code): ApiProblem<Code> {
    return new ApiProblem<Code>(400, code, issue.message, { field: issue.field, hint: issue.hint });
  }
}

/** The body and status a service answers for a problem. */
export interface ProblemResponse {
  status: ProblemStatus;
  body: unknown;
}

/** Turns a problem raised in a service, by the service itself or by the HTTP layer, into that service's envelope. */
export type ProblemFormatter<Code extends string> = (problem: ApiProblem<Code | HttpProblemCode>) => ProblemResponse;
