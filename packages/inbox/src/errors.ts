import * as core from "@pigeonhole/client-core";
import type { ErrorResponse } from "@pigeonhole/inbox-types";

/**
 * Whether a parsed error body is the Inbox API's envelope, `{error: {type, message, details: {field, code}}}`,
 * judged by its shape: only then is it typed as `ErrorResponse`.
 */
export function isInboxErrorResponse(body: unknown): body is ErrorResponse {
  // Optional chaining reads any value safely; a property of the wrong kind fails its `typeof`.
  const error = (body as Unchecked | null | undefined)?.error;
  const field = error?.details?.field;
  return (
    typeof error?.type === "string" &&
    typeof error.message === "string" &&
    typeof error.details?.code === "string" &&
    (field === null || typeof field === "string")
  );
}

/** A parsed body before its shape is checked: every level may be missing or of another type. */
interface Unchecked {
  error?: { type?: unknown; message?: unknown; details?: { code?: unknown; field?: unknown } | null } | null;
}

/** The Inbox API's error classes, its own: no other client's error is an instance of them. */
export const inboxErrors = core.defineServiceErrors({
  service: "inbox",
  isEnvelope: isInboxErrorResponse,
  summarize: ({ error }) => ({ code: error.details.code, message: error.message, field: error.details.field }),
});

// Each instance type is an interface of its own, so that TypeScript's `instanceof` narrowing tells them apart from
// another client's (it compares declarations, and would take two uses of one generic interface for the same class).

/** Any error answer of the Inbox API. `body` is the envelope when the answer carried it, else undefined. */
export interface APIError extends core.ServiceAPIError<"inbox", ErrorResponse> {}
export const APIError: core.ErrorClass<APIError> = inboxErrors.APIError;

/** 400 with the envelope: the request is invalid; `body.error.details` names the field and the reason. */
export interface BadRequestError extends core.EnvelopeAPIError<"inbox", ErrorResponse, "BadRequestError"> {}
export const BadRequestError: core.ErrorClass<BadRequestError, ErrorResponse> = inboxErrors.BadRequestError;

/** 401 with the envelope: the API key is missing or unknown. */
export interface AuthenticationError extends core.EnvelopeAPIError<"inbox", ErrorResponse, "AuthenticationError"> {}
export const AuthenticationError: core.ErrorClass<AuthenticationError, ErrorResponse> = inboxErrors.AuthenticationError;

/** 404 with the envelope: no such inbox, message, thread or webhook for this key. */
export interface NotFoundError extends core.EnvelopeAPIError<"inbox", ErrorResponse, "NotFoundError"> {}
export const NotFoundError: core.ErrorClass<NotFoundError, ErrorResponse> = inboxErrors.NotFoundError;

/** 409 with the envelope: a taken address, or an idempotency key reused with another body. */
export interface ConflictError extends core.EnvelopeAPIError<"inbox", ErrorResponse, "ConflictError"> {}
export const ConflictError: core.ErrorClass<ConflictError, ErrorResponse> = inboxErrors.ConflictError;

/** 413 with the envelope: the body is over the service's limit. */
export interface PayloadTooLargeError extends core.EnvelopeAPIError<"inbox", ErrorResponse, "PayloadTooLargeError"> {}
export const PayloadTooLargeError: core.ErrorClass<PayloadTooLargeError, ErrorResponse> =
  inboxErrors.PayloadTooLargeError;

/** Every 429, with the envelope or (from a proxy) without. `retryAfter` is the wait the answer asked for. */
export interface RateLimitError extends core.ServiceRateLimitError<"inbox", ErrorResponse> {}
export const RateLimitError: core.ErrorClass<RateLimitError> = inboxErrors.RateLimitError;

/** Every 5xx, with the envelope or (from a proxy or gateway) without. */
export interface InternalServerError extends core.ServiceAPIError<"inbox", ErrorResponse, "InternalServerError"> {}
export const InternalServerError: core.ErrorClass<InternalServerError> = inboxErrors.InternalServerError;

// Errors without an answer carry no envelope, so both clients share them.
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  PigeonholeError,
} from "@pigeonhole/client-core";
