import type { ErrorResponse, ErrorType } from "@pigeonhole/inbox-types";
import type { ApiProblem, ProblemResponse } from "../http/api-problem.ts";

const TYPE_BY_STATUS: Record<ApiProblem["status"], ErrorType> = {
  400: "validation_error",
  401: "authentication_error",
  404: "not_found_error",
  405: "validation_error",
  409: "conflict_error",
  413: "payload_too_large_error",
  429: "rate_limit_error",
  500: "internal_error",
};

/** The inbox envelope: `{error: {type, message, details: {field, code}}}`. */
export function formatInboxProblem(problem: ApiProblem): ProblemResponse {
  const body: ErrorResponse = {
    error: {
      type: TYPE_BY_STATUS[problem.status],
      message: problem.message,
      details: { field: problem.details.field ?? null, code: problem.code },
    },
  };
  return { status: problem.status, body };
}
