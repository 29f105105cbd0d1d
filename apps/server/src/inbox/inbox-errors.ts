import type { ErrorType } from "@pigeonhole/inbox-types";
import type { HttpProblemCode, ProblemResponse, ProblemStatus } from "../http/api-problem.ts";
import { ApiProblem } from "../http/api-problem.ts";

/** The codes only the inbox answers with, beside the HTTP layer's (`details.code` of the inbox envelope). */
export type InboxProblemCode =
  | HttpProblemCode
  | "TOO_MANY_RECIPIENTS"
  | "INVALID_PAGE_TOKEN"
  | "ADDRESS_TAKEN"
  | "CLIENT_ID_TAKEN"
  | "INVALID_URL"
  | "WEBHOOK_LIMIT_REACHED"
  | "RECIPIENT_BLOCKED"
  | "LIST_LIMIT_REACHED"
  | "DRAFT_LIMIT_REACHED"
  | "IDEMPOTENCY_KEY_REUSED"
  | "SEND_LIMIT_EXCEEDED"
  | "TOO_MANY_CONNECTIONS"
  | "SYSTEM_LABEL"
  | "DOMAIN_NOT_HOSTED"
  | "DOMAINS_MANAGED_BY_OPERATOR"
  | "API_KEY_LIMIT_REACHED"
  | "TOO_MANY_KEYS"
  | "TOO_MANY_INBOXES"
  | "KEY_IN_USE";

/** A problem the inbox raises, in its own vocabulary. */
export class InboxProblem extends ApiProblem<InboxProblemCode> {}

const TYPE_BY_STATUS: Record<ProblemStatus, ErrorType> = {
  400: "validation_error",
  401: "authentication_error",
  // Never raised by the inbox: another pod's ids answer 404, so that existence does not leak.
  403: "authentication_error",
  404: "not_found_error",
  405: "validation_error",
  409: "conflict_error",
  413: "payload_too_large_error",
  429: "rate_limit_error",
  500: "internal_error",
};

/** The inbox envelope: `{error: {type, message, details: {field, code}}}`. */
export function formatInboxProblem(problem: ApiProblem<InboxProblemCode>): ProblemResponse {
  return inboxEnvelope(problem, TYPE_BY_STATUS);
}

/**
 * `problem` in the inbox envelope, with the error type `typeByStatus` names for its status: test control answers in
 * this envelope too, with fewer types.
 */
export function inboxEnvelope<Type extends string>(
  problem: ApiProblem<string>,
  typeByStatus: Readonly<Record<ProblemStatus, Type>>,
): ProblemResponse {
  const body = {
    error: {
      type: typeByStatus[problem.status],
      message: problem.message,
      details: { field: problem.details.field ?? null, code: problem.code },
    },
  };
  return { status: problem.status, body };
}
