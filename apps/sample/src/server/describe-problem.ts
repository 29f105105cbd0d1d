import { APIConnectionError, APIError, RateLimitError } from "@pigeonhole/inbox";
import type { Problem, Service } from "../shared/wire.ts";

const KIND_BY_STATUS: Record<number, Problem["kind"]> = {
  400: "validation",
  401: "authentication",
  404: "not_found",
  409: "conflict",
  413: "validation",
  429: "rate_limit",
};

/**
 * Turns what a client threw into the problem shown on the page, with the status to answer. Unknown errors give
 * undefined: they are bugs of the sample, not something to explain to its user.
 */
export function describeProblem(error: unknown, service: Service): { status: number; problem: Problem } | undefined {
  // Both clients throw the same classes, so the inbox package's `APIError` matches forum errors too.
  if (error instanceof APIError) {
    const problem: Problem = {
      service,
      kind: KIND_BY_STATUS[error.status] ?? "other",
      status: error.status,
      message: error.message,
      ...envelopeDetails(error.body),
    };
    if (error.code !== undefined) {
      problem.code = error.code;
    }
    if (error.requestId !== null) {
      problem.requestId = error.requestId;
    }
    if (error instanceof RateLimitError && error.retryAfter !== null) {
      problem.retryAfterSeconds = error.retryAfter;
    }
    return { status: error.status, problem };
  }
  if (error instanceof APIConnectionError) {
    const message = `${error.message} Is the sandbox running?`;
    return { status: 502, problem: { service, kind: "connection", status: 502, message } };
  }
  if (error instanceof SyntaxError) {
    // `c.req.json()` could not parse what the page sent.
    return { status: 400, problem: { service, kind: "validation", status: 400, message: "The body is not JSON." } };
  }
  return undefined;
}

/**
 * The human message, field and hint of either envelope: the inbox's `{error: {message, details: {field}}}` or the
 * forum's `{success: false, error, hint}`.
 */
function envelopeDetails(body: unknown): Pick<Problem, "message" | "field" | "hint"> | undefined {
  if (!isRecord(body)) {
    return undefined;
  }
  const { error, hint } = body;
  if (isRecord(error) && typeof error.message === "string") {
    const field = isRecord(error.details) ? error.details.field : undefined;
    return typeof field === "string" ? { message: error.message, field } : { message: error.message };
  }
  if (typeof error === "string") {
    return typeof hint === "string" ? { message: error, hint } : { message: error };
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
