export {
  type ApiClient,
  type ClientMethod,
  type ClientOptions,
  createApiClient,
  type DataMethod,
  type ResultMethod,
  type ServiceDefinition,
} from "./client.js";
export { readEnv } from "./env.js";
export type { ErrorSummary } from "./error-message.js";
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  type APIErrorInit,
  APIUserAbortError,
  type ErrorClass,
  PigeonholeError,
} from "./errors.js";
export {
  type OffsetPage,
  offsetCursor,
  type PageCursor,
  pageItems,
  type TokenPage,
  tokenCursor,
} from "./list-pages.js";
export { type Logger, type LogLevel, redactHeaders } from "./logger.js";
export { type PaginateOptions, type Paginator, paginate } from "./pagination.js";
export type {
  ArrayKeys,
  CallInit,
  InitParam,
  ItemOf,
  ListPath,
  OperationOf,
  PageOf,
  StrictInitParam,
  SuccessData,
} from "./path-types.js";
export { isRetryableStatus, parseRetryAfterMs, type RetryDelayOptions, retryDelay, shouldRetry } from "./retry.js";
export {
  defineServiceErrors,
  type EnvelopeAPIError,
  type ServiceAPIError,
  type ServiceErrors,
  type ServiceErrorsDefinition,
  type ServiceRateLimitError,
} from "./service-errors.js";
export {
  createTransport,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type Fetch,
  type RequestOptions,
  type Sleep,
  type Transport,
  type TransportOptions,
} from "./transport.js";
export { type ErrorFromResponse, type FetchResult, unwrap } from "./unwrap.js";
