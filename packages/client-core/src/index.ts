export {
  type ApiClient,
  type CallTable,
  type CallTypes,
  type ClientMethod,
  type ClientOptions,
  createApiClient,
  type DataMethod,
  type ResultMethod,
  type ServiceDefinition,
} from "./client.js";
export type { DownloadParseAs } from "./download.js";
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
export type { CallTableMismatches, CallTableOf, OperationsWithHeader } from "./from-paths.js";
export type { GiveUpEvent, Hooks, RequestEvent, ResponseEvent, RetryEvent } from "./hooks.js";
export { type OffsetPage, offsetCursor, type PageCursor, type TokenPage, tokenCursor } from "./list-pages.js";
export { createLogger, type Logger, type LogLevel } from "./logger.js";
export { type PaginateOptions, type Paginator, paginate } from "./pagination.js";
export type {
  ApiCalls,
  CallData,
  CallInit,
  CallResult,
  DefaultParseAs,
  DownloadData,
  DownloadOperations,
  FetchCallOptions,
  ListPath,
  OperationKey,
} from "./path-types.js";
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
  type Fetch,
  type RequestOptions,
  type Sleep,
  type Transport,
  type TransportOptions,
} from "./transport.js";
export { type ErrorFromResponse, type FetchResult, unwrap } from "./unwrap.js";
