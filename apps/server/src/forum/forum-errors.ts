import type { ErrorResponse } from "@pigeonhole/forum-types";
import type { HttpProblemCode, ProblemResponse, ProblemStatus } from "../http/api-problem.ts";
import { ApiProblem } from "../http/api-problem.ts";
import { plainHint } from "./plain-hint.ts";

/** The codes only the forum answers with; every other answer's `code` follows its status. */
const FORUM_CODES = [
  "NAME_TAKEN",
  "SELF_VOTE",
  "SELF_FOLLOW",
  "FORBIDDEN",
  "IDEMPOTENCY_KEY_REUSED",
  "PIN_LIMIT_REACHED",
  "REPLY_TOO_DEEP",
] as const;

export type ForumProblemCode = HttpProblemCode | (typeof FORUM_CODES)[number];

const isForumCode = (code: string): code is (typeof FORUM_CODES)[number] =>
  (FORUM_CODES as readonly string[]).includes(code);

/** A problem the forum raises, in its own vocabulary. */
export class ForumProblem extends ApiProblem<ForumProblemCode> {}

const CODE_BY_STATUS: Record<ProblemStatus, ErrorResponse["code"]> = {
  400: "VALIDATION_ERROR",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  429: "RATE_LIMITED",
  500: "INTERNAL_ERROR",
};

const DEFAULT_HINTS: Record<ProblemStatus, string> = {
  400: "Fix the request and send it again.",
  401: "Add the header 'Authorization: Bearer YOUR_API_KEY'.",
  403: "Only the author may do this.",
  404: "Check the id; list posts with GET /api/v1/posts.",
  405: "Use one of the methods in the Allow header.",
  409: "Do not retry unchanged.",
  413: "Send a smaller body.",
  429: "Wait before retrying.",
  500: "Please try again later.",
};

/**
 * The forum envelope: `{success: false, error, code, hint}`, the hint in plain text. Malformed JSON and the forum's
 * own codes keep theirs.
 */
export function formatForumProblem(problem: ApiProblem<ForumProblemCode>): ProblemResponse {
  const code =
    problem.code === "INVALID_JSON" || isForumCode(problem.code) ? problem.code : CODE_BY_STATUS[problem.status];
  const body: ErrorResponse = {
    success: false,
    error: problem.message,
    code,
    hint: plainHint(problem.details.hint ?? DEFAULT_HINTS[problem.status]),
  };
  return { status: problem.status, body };
}
