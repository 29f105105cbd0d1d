import type { ValidationIssue } from "../spec/validation-issue.ts";

/**
 * Codes of the problems the shared HTTP layer and the handlers raise. They use the inbox spec's `details.code`
 * vocabulary; each service's error formatter maps them onto its own envelope.
 */
export type ProblemCode =
  | ValidationIssue["code"]
  | "TOO_MANY_RECIPIENTS"
  | "INVALID_PAGE_TOKEN"
  | "INVALID_JSON"
  | "MISSING_API_KEY"
  | "INVALID_API_KEY"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "ADDRESS_TAKEN"
  | "CLIENT_ID_TAKEN"
  | "IDEMPOTENCY_KEY_REUSED"
  | "PAYLOAD_TOO_LARGE"
  | "RATE_LIMIT_EXCEEDED"
  | "SEND_LIMIT_EXCEEDED"
  | "INTERNAL_ERROR";

export type ProblemStatus = 400 | 401 | 404 | 405 | 409 | 413 | 429 | 500;

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

/** An error answer a request deserves: thrown anywhere in a request, and turned into the service's envelope. */
export class ApiProblem extends Error {
  override name = "ApiProblem";
  readonly status: ProblemStatus;
  readonly code: ProblemCode;
  readonly details: ProblemDetails;

  constructor(status: ProblemStatus, code: ProblemCode, message: string, details: ProblemDetails = {}) {
    super(message);
    this.status = status;
    this.code = code;
    // A conflict answers the same on every retry; the spec's Conflict response tells retrying clients so.
    this.details =
      status === 409 ? { ...details, headers: { "X-Should-Retry": "false", ...details.headers } } : details;
  }

  static fromIssue(issue: ValidationIssue, code: ProblemCode = issue.code): ApiProblem {
    return new ApiProblem(400, code, issue.message, { field: issue.field, hint: issue.hint });
  }
}

/** The body and status a service answers for a problem. */
export interface ProblemResponse {
  status: ProblemStatus;
  body: unknown;
}

/** Turns a problem into a service's error envelope. */
export type ProblemFormatter = (problem: ApiProblem) => ProblemResponse;
