import type { ErrorType } from "@pigeonhole/test-control-types";
import type { HttpProblemCode, ProblemResponse, ProblemStatus } from "../http/api-problem.ts";
import { ApiProblem } from "../http/api-problem.ts";
import { inboxEnvelope } from "../inbox/inbox-errors.ts";

/** The codes only test control answers with, beside the HTTP layer's. */
export type TestControlProblemCode = HttpProblemCode | "CLOCK_BACKWARDS" | "WAIT_TIMED_OUT";

/** A problem test control raises, in its own vocabulary. */
export class TestControlProblem extends ApiProblem<TestControlProblemCode> {}

// Test control documents four categories; a limit it shares with the services (an oversize body) is a request to fix.
const TYPE_BY_STATUS: Record<ProblemStatus, ErrorType> = {
  400: "validation_error",
  401: "authentication_error",
  403: "authentication_error",
  404: "not_found_error",
  405: "validation_error",
  409: "validation_error",
  413: "validation_error",
  429: "validation_error",
  500: "internal_error",
};

/** The envelope of test control, the Inbox API's: `{error: {type, message, details: {field, code}}}`. */
export function formatTestControlProblem(problem: ApiProblem<TestControlProblemCode>): ProblemResponse {
  return inboxEnvelope(problem, TYPE_BY_STATUS);
}
