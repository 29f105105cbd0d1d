export {
  createLogger,
  type GiveUpEvent,
  type Logger,
  type LogLevel,
  type Paginator,
  type RequestEvent,
  type ResponseEvent,
  type RetryEvent,
} from "@pigeonhole/client-core";
export type * from "@pigeonhole/forum-types";
export {
  createForumClient,
  type ForumClient,
  type ForumClientOptions,
  type ForumRequestOptions,
} from "./client.js";
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  isForumErrorResponse,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  PigeonholeError,
  RateLimitError,
} from "./errors.js";
