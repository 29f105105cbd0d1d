import { type ErrorSummary, formatMessage, oneLine } from "./error-message.js";

/** Base class of every error this package throws, so callers can catch them all with one `instanceof`. */
export class PigeonholeError extends Error {
  // A class field (not `constructor.name`) so the name survives minifiers.
  override name = "PigeonholeError";
}

/** What an `APIError` is built from: the answer, and what the service's definition read from its body. */
export interface APIErrorInit<TEnvelope> {
  status: number;
  headers: Headers;
  /** The body, when it was recognised as the service's error envelope. */
  envelope: TEnvelope | undefined;
  /** The body as it arrived. */
  rawBody: unknown;
  /** The reason read from the body, for `code` and the message. */
  summary: ErrorSummary;
  /** Replaces the message built from the status, the summary and the request id. */
  message?: string | undefined;
}

/**
 * The service answered with a non-2xx status. This is the base shared by every service: each client throws its
 * own subclasses (see `defineServiceErrors`), whose `body` is typed as that service's envelope.
 */
export abstract class APIError<TEnvelope = unknown> extends PigeonholeError {
  override name = "APIError";
  declare readonly status: number;
  /** The service's error envelope; undefined when the body was something else (a proxy's page, an empty body). */
  declare readonly body: TEnvelope | undefined;
  /** The body as it arrived, whatever it is: parsed JSON, text, or undefined when empty. */
  declare readonly rawBody: unknown;
  declare readonly headers: Headers;
  /** From `x-request-id`; quote it when reporting a problem. */
  declare readonly requestId: string | null;
  /** The machine-readable reason given by the envelope (for example `NOT_FOUND`), if any. */
  declare readonly code: string | undefined;

  constructor({ status, headers, envelope, rawBody, summary, message }: APIErrorInit<TEnvelope>) {
    const requestId = headers.get("x-request-id");
    super(message ?? formatMessage(status, summary, requestId));
    this.status = status;
    this.body = envelope;
    this.rawBody = rawBody;
    this.headers = headers;
    this.requestId = requestId;
    this.code = oneLine(summary.code);
  }

  /**
   * Plain `instanceof` semantics, typed so `err instanceof APIError` narrows to `APIError<unknown>`: without it
   * TypeScript fills in `any` for the envelope type of a generic class. Declared only: the runtime's own applies.
   */
  declare static readonly [Symbol.hasInstance]: <T>(
    this: abstract new (
      ...args: never[]
    ) => T,
    value: unknown,
  ) => value is T;
}

/**
 * An error class seen through its instance type: `instanceof` narrows to `T`, and `new` takes the status, a body
 * of type `TBody` and optionally the headers and a message.
 */
export interface ErrorClass<T, TBody = unknown> {
  new (status: number, body: TBody, headers?: Headers, message?: string): T;
  readonly prototype: T;
  [Symbol.hasInstance](value: unknown): value is T;
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
