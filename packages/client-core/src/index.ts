export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  PigeonholeError,
  RateLimitError,
  UnprocessableEntityError,
} from "./errors.js";
export { CLIENT_HEADER, clientHeaders, type HeadersSource, mergeHeaders } from "./headers.js";
export { createLogger, type Logger, type LogLevel, redactHeaders } from "./logger.js";
export { type PaginateOptions, type Paginator, paginate } from "./pagination.js";
export { isRetryableStatus, type RetryDelayOptions, retryDelay, shouldRetry } from "./retry.js";
export {
  createTransport,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type Fetch,
  MAX_RETRIES_HEADER,
  RETRY_COUNT_HEADER,
  type RequestOptions,
  requestOptionsHeaders,
  type Sleep,
  TIMEOUT_HEADER,
  type Transport,
  type TransportOptions,
} from "./transport.js";
export { type FetchResult, unwrap } from "./unwrap.js";
