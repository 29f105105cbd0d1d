import { parseRetryAfterMs } from "./retry.js";

/** Base class of every error this package throws, so callers can catch them all with one `instanceof`. */
export class PigeonholeError extends Error {
  // A class field (not `constructor.name`) so the name survives minifiers.
  override name = "PigeonholeError";
}

/** The service answered with a non-2xx status. `body` is the parsed error envelope, when there was one. */
export class APIError<TBody = unknown> extends PigeonholeError {
  override name = "APIError";
  readonly status: number;
  readonly body: TBody | undefined;
  readonly headers: Headers;
  /** From `x-request-id`; quote it when reporting a problem. */
  readonly requestId: string | null;

  constructor(status: number, body: TBody | undefined, headers: Headers = new Headers(), message?: string) {
    super(message ?? formatMessage(status, body));
    this.status = status;
    this.body = body;
    this.headers = headers;
    this.requestId = headers.get("x-request-id");
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
    switch (status) {
      case 400:
        return new BadRequestError(status, body, headers);
      case 401:
        return new AuthenticationError(status, body, headers);
      case 403:
        return new PermissionDeniedError(status, body, headers);
      case 404:
        return new NotFoundError(status, body, headers);
      case 409:
        return new ConflictError(status, body, headers);
      case 413:
        return new PayloadTooLargeError(status, body, headers);
      case 422:
        return new UnprocessableEntityError(status, body, headers);
      case 429:
        return new RateLimitError(status, body, headers);
      default:
        return status >= 500 ? new InternalServerError(status, body, headers) : new APIError(status, body, headers);
    }
  }
}

export class BadRequestError<TBody = unknown> extends APIError<TBody> {
  override name = "BadRequestError";
}

export class AuthenticationError<TBody = unknown> extends APIError<TBody> {
  override name = "AuthenticationError";
}

export class PermissionDeniedError<TBody = unknown> extends APIError<TBody> {
  override name = "PermissionDeniedError";
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

export class UnprocessableEntityError<TBody = unknown> extends APIError<TBody> {
  override name = "UnprocessableEntityError";
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

const MAX_MESSAGE_LENGTH = 200;

function formatMessage(status: number, body: unknown): string {
  const detail = summarize(body);
  if (detail !== undefined) {
    return `${status} ${detail}`;
  }
  return body === undefined || body === "" ? `${status} status code (no body)` : `${status} status code`;
}

/** A one-line reason from the usual envelopes (`{message}`, `{error}`, `{error: {message}}`) or a short text body. */
function summarize(body: unknown): string | undefined {
  if (typeof body === "string") {
    return nonEmpty(body);
  }
  if (!isRecord(body)) {
    return undefined;
  }
  if (typeof body.message === "string" && nonEmpty(body.message)) {
    return nonEmpty(body.message);
  }
  if (typeof body.error === "string" && nonEmpty(body.error)) {
    return nonEmpty(body.error);
  }
  if (isRecord(body.error) && typeof body.error.message === "string") {
    return nonEmpty(body.error.message);
  }
  return undefined;
}

function nonEmpty(text: string): string | undefined {
  const line = text.replace(/\s+/g, " ").trim();
  if (line === "") {
    return undefined;
  }
  return line.length > MAX_MESSAGE_LENGTH ? `${line.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : line;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
