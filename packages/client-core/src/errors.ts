import { parseRetryAfterMs } from "./retry.js";

/** Base class of every error this package throws, so callers can catch them all with one `instanceof`. */
export class PigeonholeError extends Error {
  // A class field (not `constructor.name`) so the name survives minifiers.
  override name = "PigeonholeError";
}

/**
 * The service answered with a non-2xx status. `body` is the parsed error envelope of the service, when there was
 * one; the clients bind `TBody` to their service's `ErrorResponse`.
 */
export class APIError<TBody = unknown> extends PigeonholeError {
  override name = "APIError";
  readonly status: number;
  readonly body: TBody | undefined;
  readonly headers: Headers;
  /** From `x-request-id`; quote it when reporting a problem. */
  readonly requestId: string | null;
  /** The machine-readable reason from the envelope (`error.details.code`, `code`, or `error.type`), if any. */
  readonly code: string | undefined;

  constructor(status: number, body: TBody | undefined, headers: Headers = new Headers(), message?: string) {
    const requestId = headers.get("x-request-id");
    const summary = summarize(body);
    super(message ?? formatMessage(status, summary, requestId));
    this.status = status;
    this.body = body;
    this.headers = headers;
    this.requestId = requestId;
    this.code = summary.code;
  }

  /**
   * Plain `instanceof` semantics, typed so `err instanceof NotFoundError` narrows to `NotFoundError<unknown>`:
   * without it TypeScript fills in `any` for the body type of a generic class.
   */
  static [Symbol.hasInstance]<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    // biome-ignore lint/complexity/noThisInStatic: `this` is whichever subclass `instanceof` was called on
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }

  /** Builds the subclass that matches the response status. */
  static from<TBody = unknown>(response: Response, body?: TBody): APIError<TBody> {
    const { status, headers } = response;
    const ErrorClass = CLASS_BY_STATUS[status] ?? (status >= 500 ? InternalServerError : APIError);
    return new ErrorClass(status, body, headers);
  }
}

export class BadRequestError<TBody = unknown> extends APIError<TBody> {
  override name = "BadRequestError";
}

export class AuthenticationError<TBody = unknown> extends APIError<TBody> {
  override name = "AuthenticationError";
}

export class NotFoundError<TBody = unknown> extends APIError<TBody> {
  override name = "NotFoundError";
}

export class ConflictError<TBody = unknown> extends APIError<TBody> {
  override name = "ConflictError";
}

export class PayloadTooLargeError<TBody = unknown> extends APIError<TBody> {
  override name = "PayloadTooLargeError";
}

export class RateLimitError<TBody = unknown> extends APIError<TBody> {
  override name = "RateLimitError";
  /** Seconds the server asked us to wait (`retry-after-ms` or `Retry-After`), or null if it didn't say. */
  readonly retryAfter: number | null;

  constructor(status: number, body: TBody | undefined, headers: Headers = new Headers(), message?: string) {
    super(status, body, headers, message);
    const ms = parseRetryAfterMs(headers);
    this.retryAfter = ms === null ? null : ms / 1000;
  }
}

export class InternalServerError<TBody = unknown> extends APIError<TBody> {
  override name = "InternalServerError";
}

const CLASS_BY_STATUS: Record<number, typeof APIError | undefined> = {
  400: BadRequestError,
  401: AuthenticationError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  429: RateLimitError,
};

/** The request never got an HTTP response (DNS, TCP, TLS, or a fetch that threw). */
export class APIConnectionError extends PigeonholeError {
  override name = "APIConnectionError";

  constructor({ message = "Connection error.", cause }: { message?: string; cause?: unknown } = {}) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/** No response within the timeout, on every attempt. */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = "APIConnectionTimeoutError";

  constructor({ message = "Request timed out.", cause }: { message?: string; cause?: unknown } = {}) {
    super({ message, cause });
  }
}

/** The caller aborted via its own AbortSignal; never retried. */
export class APIUserAbortError extends PigeonholeError {
  override name = "APIUserAbortError";

  constructor({ message = "Request was aborted.", cause }: { message?: string; cause?: unknown } = {}) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

const MAX_DETAIL_LENGTH = 200;

interface Summary {
  code?: string;
  message?: string;
  field?: string;
  hint?: string;
}

/** One line: `404 NOT_FOUND: No inbox support@pigeonhole.test (request req_123)`. */
function formatMessage(status: number, { code, message, field, hint }: Summary, requestId: string | null): string {
  const reason =
    code !== undefined && message !== undefined ? `${code}: ${message}` : (code ?? message ?? "status code");
  const notes = [field && `(field: ${field})`, hint && `(hint: ${hint})`, requestId && `(request ${requestId})`];
  return [`${status} ${reason}`, ...notes].filter(Boolean).join(" ");
}

/**
 * The reason from the usual envelopes: the inbox service's `{error: {type, message, details: {field, code}}}`,
 * the forum service's `{error, code, hint}`, a generic `{message, code}`, or a short text body.
 */
function summarize(body: unknown): Summary {
  if (typeof body === "string") {
    return { message: oneLine(body) };
  }
  if (!isRecord(body)) {
    return {};
  }
  const { error } = body;
  if (isRecord(error)) {
    const details = isRecord(error.details) ? error.details : {};
    return {
      code: oneLine(details.code) ?? oneLine(error.type) ?? oneLine(error.code),
      message: oneLine(error.message),
      field: oneLine(details.field),
    };
  }
  return {
    code: oneLine(body.code),
    message: oneLine(error) ?? oneLine(body.message),
    hint: oneLine(body.hint),
  };
}

/** A non-empty string squeezed onto one line and cut to a readable length; anything else is undefined. */
function oneLine(value: unknown): string | undefined {
  if (typeof value !== "string") {
    return undefined;
  }
  const line = value.replace(/\s+/g, " ").trim();
  if (line === "") {
    return undefined;
  }
  return line.length > MAX_DETAIL_LENGTH ? `${line.slice(0, MAX_DETAIL_LENGTH - 1)}…` : line;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * An error class seen through one service's envelope type: `instanceof` narrows to `T`, so the clients can export
 * the shared classes with their `ErrorResponse` bound, e.g. `NotFoundError: ErrorClass<NotFoundError<ErrorResponse>>`.
 */
export interface ErrorClass<T> {
  new (status: number, body: ErrorBodyOf<T> | undefined, headers?: Headers, message?: string): T;
  readonly prototype: T;
  [Symbol.hasInstance](value: unknown): value is T;
}

type ErrorBodyOf<T> = T extends APIError<infer TBody> ? TBody : never;
