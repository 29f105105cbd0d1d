import * as forum from "@pigeonhole/forum";
import * as inbox from "@pigeonhole/inbox";
import type { Problem, Service } from "../shared/wire.ts";
import { UnknownAgentError } from "./forum-agents.ts";

const KIND_BY_STATUS: Record<number, Problem["kind"]> = {
  400: "validation",
  401: "authentication",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "validation",
  429: "rate_limit",
};

/** What both services' `APIError`s have in common, and what the page shows of it. */
interface AnyAPIError {
  status: number;
  message: string;
  code: string | undefined;
  requestId: string | null;
}

/** The human message of an envelope, with the field (inbox) or the hint (forum) when the envelope gives one. */
type EnvelopeDetails = Pick<Problem, "message" | "field" | "hint">;

/**
 * Turns what a client threw into the problem shown on the page, with the status to answer. Unknown errors give
 * undefined: they are bugs of the sample, not something to explain to its user.
 */
export function describeProblem(error: unknown, service: Service): { status: number; problem: Problem } | undefined {
  // Each client throws its own classes: a forum error is not an instance of the inbox package's `APIError`, and
  // `instanceof` of a service's class types `body` as that service's envelope.
  if (service === "inbox" && error instanceof inbox.APIError) {
    const envelope = error.body?.error;
    const details = envelope && {
      message: envelope.message,
      ...(envelope.details.field !== null && { field: envelope.details.field }),
    };
    return fromAPIError(service, error, details, error instanceof inbox.RateLimitError ? error.retryAfter : null);
  }
  if (service === "forum" && error instanceof forum.APIError) {
    const details = error.body && { message: error.body.error, hint: error.body.hint };
    return fromAPIError(service, error, details, error instanceof forum.RateLimitError ? error.retryAfter : null);
  }
  if (error instanceof inbox.APIConnectionError || error instanceof forum.APIConnectionError) {
    const message = `${error.message} Is the Pigeonhole server running?`;
    return { status: 502, problem: { service, kind: "connection", status: 502, message } };
  }
  if (error instanceof UnknownAgentError) {
    return { status: 400, problem: { service, kind: "validation", status: 400, message: error.message } };
  }
  if (error instanceof SyntaxError) {
    // `c.req.json()` could not parse what the page sent.
    return { status: 400, problem: { service, kind: "validation", status: 400, message: "The body is not JSON." } };
  }
  return undefined;
}

function fromAPIError(
  service: Service,
  error: AnyAPIError,
  details: EnvelopeDetails | undefined,
  retryAfter: number | null,
): { status: number; problem: Problem } {
  const problem: Problem = {
    service,
    kind: KIND_BY_STATUS[error.status] ?? "other",
    status: error.status,
    message: error.message,
    ...details,
  };
  if (error.code !== undefined) {
    problem.code = error.code;
  }
  if (error.requestId !== null) {
    problem.requestId = error.requestId;
  }
  if (retryAfter !== null) {
    problem.retryAfterSeconds = retryAfter;
  }
  return { status: error.status, problem };
}
