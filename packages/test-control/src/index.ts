export {
  createLogger,
  type GiveUpEvent,
  type Logger,
  type LogLevel,
  type RequestEvent,
  type RequestOptions,
  type ResponseEvent,
  type RetryEvent,
} from "@pigeonhole/client-core";
export type * from "@pigeonhole/test-control-types";
export type { CallOptions, TestControlApi } from "./api.js";
export {
  createTestControl,
  DEFAULT_TEST_CONTROL_KEY,
  type TestControl,
  type TestControlOptions,
} from "./client.js";
export type { ClockChange, ClockControl } from "./clock.js";
export type { Duration } from "./duration.js";
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  isTestControlErrorResponse,
  NotFoundError,
  PigeonholeError,
  RateLimitError,
  WaitTimedOutError,
} from "./errors.js";
export type { ExtractFromMessage } from "./extract.js";
export type { FaultControl } from "./faults.js";
export type { Reset, ResetScope } from "./reset.js";
export type { MessageFilter, WaitControl, WebhookDeliveryFilter } from "./wait.js";
