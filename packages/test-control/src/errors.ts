import * as core from "@pigeonhole/client-core";
import type { ErrorResponse } from "@pigeonhole/test-control-types";

/**
 * Whether a parsed error body is test control's envelope (the Inbox API's shape),
 * `{error: {type, message, details: {field, code}}}`, judged by its shape: only then is it typed as `ErrorResponse`.
 */
export function isTestControlErrorResponse(body: unknown): body is ErrorResponse {
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

/** Test control's error classes, its own: no other client's error is an instance of them. */
const testControlErrors = core.defineServiceErrors({
  service: "test-control",
  isEnvelope: isTestControlErrorResponse,
  summarize: ({ error }) => ({ code: error.details.code, message: error.message, field: error.details.field }),
});

// Each instance type is an interface of its own, so that TypeScript's `instanceof` narrowing tells them apart from
// another client's (it compares declarations, and would take two uses of one generic interface for the same class).

/** Any error answer of test control. `body` is the envelope when the answer carried it, else undefined. */
export interface APIError extends core.ServiceAPIError<"test-control", ErrorResponse> {}
export const APIError: core.ErrorClass<APIError> = testControlErrors.APIError;

/** 400 with the envelope: the request is invalid (`CLOCK_BACKWARDS` among others); `details` names the field. */
export interface BadRequestError extends core.EnvelopeAPIError<"test-control", ErrorResponse, "BadRequestError"> {}
export const BadRequestError: core.ErrorClass<BadRequestError, ErrorResponse> = testControlErrors.BadRequestError;

/**
 * 401 with the envelope: the test-control key is missing or wrong. An Inbox API key or a Forum agent key is refused
 * too: test control has a key of its own.
 */
export interface AuthenticationError
  extends core.EnvelopeAPIError<"test-control", ErrorResponse, "AuthenticationError"> {}
export const AuthenticationError: core.ErrorClass<AuthenticationError, ErrorResponse> =
  testControlErrors.AuthenticationError;

/**
 * 404 with the envelope: no such fault or message. A server whose test control is off answers every `/_test` path
 * with a 404 too, as it answers an unknown path.
 */
export interface NotFoundError extends core.EnvelopeAPIError<"test-control", ErrorResponse, "NotFoundError"> {}
export const NotFoundError: core.ErrorClass<NotFoundError, ErrorResponse> = testControlErrors.NotFoundError;

/** Every 429, with the envelope or (from a proxy) without. `retryAfter` is the wait the answer asked for. */
export interface RateLimitError extends core.ServiceRateLimitError<"test-control", ErrorResponse> {}
export const RateLimitError: core.ErrorClass<RateLimitError> = testControlErrors.RateLimitError;

/** Every 5xx, with the envelope or (from a proxy or gateway) without. */
export interface InternalServerError
  extends core.ServiceAPIError<"test-control", ErrorResponse, "InternalServerError"> {}
export const InternalServerError: core.ErrorClass<InternalServerError> = testControlErrors.InternalServerError;

/**
 * A wait (`waitForMessage`, `waitForWebhookDelivery`) found nothing that matched within its `timeout_ms`: the 404
 * `WAIT_TIMED_OUT`. Its message says what was waited for. It is not a `NotFoundError`, so a test that expects a
 * missing fault or message does not take a timeout for one.
 */
export class WaitTimedOutError extends testControlErrors.APIError {
  override readonly name = "WaitTimedOutError";
  declare readonly body: ErrorResponse;
  // Narrows `instanceof` to this class: the inherited declaration would narrow to the base class only.
  declare static [Symbol.hasInstance]: (value: unknown) => value is WaitTimedOutError;
}

/** The error for a non-2xx answer: a `WaitTimedOutError` for `WAIT_TIMED_OUT`, else the class of its status. */
export function errorFromResponse(response: Pick<Response, "status" | "headers">, body: unknown): APIError {
  if (response.status === 404 && isTestControlErrorResponse(body) && body.error.details.code === "WAIT_TIMED_OUT") {
    return new WaitTimedOutError(response.status, body, response.headers);
  }
  return testControlErrors.fromResponse(response, body);
}

// Errors without an answer carry no envelope, so every client shares them.
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  PigeonholeError,
} from "@pigeonhole/client-core";
