import { STATUS_CODES } from "node:http";
import type { ErrorResponse as ForumErrorResponse } from "@pigeonhole/forum-types";
import type { ErrorType, ErrorResponse as InboxErrorResponse } from "@pigeonhole/inbox-types";
import type { ServiceName } from "../../service-name.ts";

// The statuses each service has a word for, each with a code its spec lists; any other status answers the closest
// category, so that a client sees only the codes its service documents.
const INBOX_ERRORS: Record<number, [ErrorType, string]> = {
  401: ["authentication_error", "INVALID_API_KEY"],
  403: ["authentication_error", "INVALID_API_KEY"],
  404: ["not_found_error", "NOT_FOUND"],
  405: ["validation_error", "METHOD_NOT_ALLOWED"],
  // Of the conflicts the spec lists, the one any write sent with an Idempotency-Key can meet.
  409: ["conflict_error", "IDEMPOTENCY_KEY_REUSED"],
  413: ["payload_too_large_error", "PAYLOAD_TOO_LARGE"],
  429: ["rate_limit_error", "RATE_LIMIT_EXCEEDED"],
};

const FORUM_CODES: Record<number, string> = {
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  409: "IDEMPOTENCY_KEY_REUSED",
  413: "PAYLOAD_TOO_LARGE",
  429: "RATE_LIMITED",
};

/** The body a respond fault answers when it names none: the service's own error envelope for the status. */
export function faultAnswerBody(service: ServiceName, status: number): InboxErrorResponse | ForumErrorResponse {
  const message = `${STATUS_CODES[status] ?? "Error"}.`;
  if (service === "inbox") {
    const [type, code] =
      INBOX_ERRORS[status] ??
      (status >= 500 ? ["internal_error", "INTERNAL_ERROR"] : ["validation_error", "INVALID_VALUE"]);
    return { error: { type, message, details: { field: null, code } } };
  }
  const code = FORUM_CODES[status] ?? (status >= 500 ? "INTERNAL_ERROR" : "VALIDATION_ERROR");
  return {
    success: false,
    error: message,
    code,
    hint: status >= 500 || status === 429 ? "Wait before retrying." : "Fix the request and send it again.",
  };
}

/** The headers a real error of `status` carries beside the envelope: a conflict tells clients not to retry it. */
export function faultAnswerHeaders(status: number): Record<string, string> {
  return status === 409 ? { "X-Should-Retry": "false" } : {};
}
