import type { APIConnectionError } from "./errors.js";

/** An attempt about to be sent. `request` is what goes on the wire: observe it, but do not read its body. */
export interface RequestEvent {
  request: Request;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
}

/** An answer to one attempt, before the client decides whether to retry it. Do not read its body here. */
export interface ResponseEvent {
  request: Request;
  response: Response;
  attempt: number;
  /** The answer's `x-request-id`, if it has one. */
  requestId: string | null;
}

/** An attempt that failed for good: the call ends with this answer or error, and is not tried again. */
export interface GiveUpEvent {
  request: Request;
  /** The last attempt: 1 for the first. */
  attempt: number;
  /** A status that would be retried (such as 429 or 503), or the error of an attempt that got no answer. */
  reason: number | APIConnectionError;
  /** The answer's `x-request-id`; null when no answer came. */
  requestId: string | null;
}

/** An attempt failed and the call will be tried again after `delay` ms. */
export interface RetryEvent extends GiveUpEvent {
  /** The attempt that failed: 1 for the first. The next one is `attempt + 1`. */
  attempt: number;
  /** Milliseconds until the next attempt: the server's `Retry-After`, or the backoff. */
  delay: number;
}

/** Typed callbacks to observe every call, such as to count retries or time attempts, without parsing log lines. */
export interface Hooks {
  onRequest?: ((event: RequestEvent) => void) | undefined;
  onResponse?: ((event: ResponseEvent) => void) | undefined;
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /**
   * The call ends without an answer (it rejects), or with a status that would be retried, because its retries are
   * spent or the request cannot be repeated safely.
   */
  onGiveUp?: ((event: GiveUpEvent) => void) | undefined;
}
