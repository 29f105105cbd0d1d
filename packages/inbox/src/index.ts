export {
  createLogger,
  type GiveUpEvent,
  type Logger,
  type LogLevel,
  type Paginator,
  type RequestEvent,
  type RequestOptions,
  type ResponseEvent,
  type RetryEvent,
} from "@pigeonhole/client-core";
export type * from "@pigeonhole/inbox-types";
export { createInboxClient, type InboxClient, type InboxClientOptions } from "./client.js";
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  isInboxErrorResponse,
  NotFoundError,
  PayloadTooLargeError,
  PigeonholeError,
  RateLimitError,
} from "./errors.js";
export {
  type EventSocket,
  type EventSocketConstructor,
  EventStreamError,
  type EventsOptions,
  type LiveEvents,
} from "./events.js";
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
  type WebhookVerificationFailure,
} from "./webhooks.js";
