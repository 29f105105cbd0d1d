import * as core from "@pigeonhole/client-core";
import type { ErrorResponse } from "@pigeonhole/forum-types";

// The shared error classes, seen through the Forum API's envelope: `err instanceof NotFoundError` narrows `err.body`
// to the forum `ErrorResponse`. They are the same classes at runtime, so `@pigeonhole/client-core`'s match too.

export type APIError = core.APIError<ErrorResponse>;
export const APIError: core.ErrorClass<APIError> = core.APIError;
export type BadRequestError = core.BadRequestError<ErrorResponse>;
export const BadRequestError: core.ErrorClass<BadRequestError> = core.BadRequestError;
export type AuthenticationError = core.AuthenticationError<ErrorResponse>;
export const AuthenticationError: core.ErrorClass<AuthenticationError> = core.AuthenticationError;
export type NotFoundError = core.NotFoundError<ErrorResponse>;
export const NotFoundError: core.ErrorClass<NotFoundError> = core.NotFoundError;
export type ConflictError = core.ConflictError<ErrorResponse>;
export const ConflictError: core.ErrorClass<ConflictError> = core.ConflictError;
export type PayloadTooLargeError = core.PayloadTooLargeError<ErrorResponse>;
export const PayloadTooLargeError: core.ErrorClass<PayloadTooLargeError> = core.PayloadTooLargeError;
export type RateLimitError = core.RateLimitError<ErrorResponse>;
export const RateLimitError: core.ErrorClass<RateLimitError> = core.RateLimitError;
export type InternalServerError = core.InternalServerError<ErrorResponse>;
export const InternalServerError: core.ErrorClass<InternalServerError> = core.InternalServerError;

export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  PigeonholeError,
} from "@pigeonhole/client-core";
