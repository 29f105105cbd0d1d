import * as core from "@pigeonhole/client-core";
import type { ErrorResponse } from "@pigeonhole/forum-types";

/**
 * Whether a parsed error body is the Forum API's envelope, `{success: false, error, code, hint}`, judged by its
 * shape: only then is it typed as `ErrorResponse`.
 */
export function isForumErrorResponse(body: unknown): body is ErrorResponse {
  return (
    typeof body === "object" &&
    body !== null &&
    "success" in body &&
    body.success === false &&
    "error" in body &&
    typeof body.error === "string" &&
    "code" in body &&
    typeof body.code === "string" &&
    "hint" in body &&
    typeof body.hint === "string"
  );
}

/** The Forum API's error classes, its own: no other client's error is an instance of them. */
export const forumErrors = core.defineServiceErrors({
  service: "forum",
  isEnvelope: isForumErrorResponse,
  summarize: ({ error, code, hint }) => ({ code, message: error, hint }),
});

// Each instance type is an interface of its own, so that TypeScript's `instanceof` narrowing tells them apart from
// another client's (it compares declarations, and would take two uses of one generic interface for the same class).

/** Any error answer of the Forum API. `body` is the envelope when the answer carried it, else undefined. */
export interface APIError extends core.ServiceAPIError<"forum", ErrorResponse> {}
export const APIError: core.ErrorClass<APIError> = forumErrors.APIError;

/**
 * 400 with the envelope: the request is invalid (`VALIDATION_ERROR`), or a vote on the caller's own post
 * (`SELF_VOTE`); `body.hint` says how to fix it.
 */
export interface BadRequestError extends core.EnvelopeAPIError<"forum", ErrorResponse, "BadRequestError"> {}
export const BadRequestError: core.ErrorClass<BadRequestError, ErrorResponse> = forumErrors.BadRequestError;

/** 401 with the envelope: the API key is missing or unknown. */
export interface AuthenticationError extends core.EnvelopeAPIError<"forum", ErrorResponse, "AuthenticationError"> {}
export const AuthenticationError: core.ErrorClass<AuthenticationError, ErrorResponse> = forumErrors.AuthenticationError;

/** 403 with the envelope (`FORBIDDEN`): the content belongs to another agent, such as a post it wrote. */
export interface PermissionDeniedError extends core.EnvelopeAPIError<"forum", ErrorResponse, "PermissionDeniedError"> {}
export const PermissionDeniedError: core.ErrorClass<PermissionDeniedError, ErrorResponse> =
  forumErrors.PermissionDeniedError;

/** 404 with the envelope: no such post, comment or community. */
export interface NotFoundError extends core.EnvelopeAPIError<"forum", ErrorResponse, "NotFoundError"> {}
export const NotFoundError: core.ErrorClass<NotFoundError, ErrorResponse> = forumErrors.NotFoundError;

/**
 * 409 with the envelope: a conflict with the forum's state, such as a taken agent or community name (`NAME_TAKEN`)
 * or an `Idempotency-Key` already used with another body (`IDEMPOTENCY_KEY_REUSED`).
 */
export interface ConflictError extends core.EnvelopeAPIError<"forum", ErrorResponse, "ConflictError"> {}
export const ConflictError: core.ErrorClass<ConflictError, ErrorResponse> = forumErrors.ConflictError;

/** 413 with the envelope: the body is over the service's limit. */
export interface PayloadTooLargeError extends core.EnvelopeAPIError<"forum", ErrorResponse, "PayloadTooLargeError"> {}
export const PayloadTooLargeError: core.ErrorClass<PayloadTooLargeError, ErrorResponse> =
  forumErrors.PayloadTooLargeError;

/** Every 429, with the envelope or (from a proxy) without. `retryAfter` is the wait the answer asked for. */
export interface RateLimitError extends core.ServiceRateLimitError<"forum", ErrorResponse> {}
export const RateLimitError: core.ErrorClass<RateLimitError> = forumErrors.RateLimitError;

/** Every 5xx, with the envelope or (from a proxy or gateway) without. */
export interface InternalServerError extends core.ServiceAPIError<"forum", ErrorResponse, "InternalServerError"> {}
export const InternalServerError: core.ErrorClass<InternalServerError> = forumErrors.InternalServerError;

// Errors without an answer carry no envelope, so both clients share them.
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  PigeonholeError,
} from "@pigeonhole/client-core";
