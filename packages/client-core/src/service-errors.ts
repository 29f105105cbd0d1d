import { type ErrorSummary, summarizeForeignBody } from "./error-message.js";
import { APIError, type ErrorClass } from "./errors.js";
import { parseRetryAfterMs } from "./retry.js";

/** How one service's error answers are recognised and read; the core knows no service's envelope. */
export interface ServiceErrorsDefinition<TService extends string, TEnvelope> {
  /** Set as `service` on every error of this service, e.g. `"inbox"`; it keeps two services' error types apart. */
  service: TService;
  /** Whether a parsed error body is this service's envelope. Only a body that passes is typed as `TEnvelope`. */
  isEnvelope(body: unknown): body is TEnvelope;
  /** The reason an envelope gives, for the error's `code` and message. */
  summarize(envelope: TEnvelope): ErrorSummary;
}

/** An error answer of one service: `body` is the service's envelope when the answer carried it, else undefined. */
export interface ServiceAPIError<TService extends string, TEnvelope, TName extends string = string>
  extends APIError<TEnvelope> {
  readonly service: TService;
  readonly name: TName;
}

/** An error answer that carried the service's envelope: `body` is always there. */
export interface EnvelopeAPIError<TService extends string, TEnvelope, TName extends string>
  extends ServiceAPIError<TService, TEnvelope, TName> {
  readonly body: TEnvelope;
}

/** A 429 of one service. */
export interface ServiceRateLimitError<TService extends string, TEnvelope>
  extends ServiceAPIError<TService, TEnvelope, "RateLimitError"> {
  /** Seconds the server asked us to wait (`retry-after-ms` or `Retry-After`), or null if it didn't say. */
  readonly retryAfter: number | null;
}

/**
 * The error classes of one service, all subclasses of its own `APIError` (and so of the core's `APIError` and
 * `PigeonholeError`), never shared with another service:
 *
 * | class                   | thrown for                                      | `body`                    |
 * | ----------------------- | ----------------------------------------------- | ------------------------- |
 * | `BadRequestError`       | 400 with the envelope                           | the envelope              |
 * | `AuthenticationError`   | 401 with the envelope                           | the envelope              |
 * | `PermissionDeniedError` | 403 with the envelope                           | the envelope              |
 * | `NotFoundError`         | 404 with the envelope                           | the envelope              |
 * | `ConflictError`         | 409 with the envelope                           | the envelope              |
 * | `PayloadTooLargeError`  | 413 with the envelope                           | the envelope              |
 * | `RateLimitError`        | every 429                                       | the envelope or undefined |
 * | `InternalServerError`   | every 5xx                                       | the envelope or undefined |
 * | `APIError` itself       | any other status, or one above without envelope | the envelope or undefined |
 *
 * 429 and 5xx keep their class without the envelope because a proxy or gateway in front of the service sends them
 * too, and what matters there (wait, retry later) does not depend on the body.
 */
export interface ServiceErrors<TService extends string, TEnvelope> {
  APIError: ErrorClass<ServiceAPIError<TService, TEnvelope>>;
  BadRequestError: ErrorClass<EnvelopeAPIError<TService, TEnvelope, "BadRequestError">, TEnvelope>;
  AuthenticationError: ErrorClass<EnvelopeAPIError<TService, TEnvelope, "AuthenticationError">, TEnvelope>;
  PermissionDeniedError: ErrorClass<EnvelopeAPIError<TService, TEnvelope, "PermissionDeniedError">, TEnvelope>;
  NotFoundError: ErrorClass<EnvelopeAPIError<TService, TEnvelope, "NotFoundError">, TEnvelope>;
  ConflictError: ErrorClass<EnvelopeAPIError<TService, TEnvelope, "ConflictError">, TEnvelope>;
  PayloadTooLargeError: ErrorClass<EnvelopeAPIError<TService, TEnvelope, "PayloadTooLargeError">, TEnvelope>;
  RateLimitError: ErrorClass<ServiceRateLimitError<TService, TEnvelope>>;
  InternalServerError: ErrorClass<ServiceAPIError<TService, TEnvelope, "InternalServerError">>;
  /** The error for a non-2xx answer and its parsed body, of the class the table above gives. */
  fromResponse(response: Pick<Response, "status" | "headers">, body: unknown): ServiceAPIError<TService, TEnvelope>;
}

/** The statuses thrown as their own class only when the answer carries the envelope, by class name. */
const ENVELOPE_STATUSES = {
  BadRequestError: 400,
  AuthenticationError: 401,
  PermissionDeniedError: 403,
  NotFoundError: 404,
  ConflictError: 409,
  PayloadTooLargeError: 413,
} as const;

/** Creates the error classes of one service from how its envelope is recognised and read. */
export function defineServiceErrors<const TService extends string, TEnvelope>(
  definition: ServiceErrorsDefinition<TService, TEnvelope>,
): ServiceErrors<TService, TEnvelope> {
  const { service, isEnvelope, summarize } = definition;

  class ServiceError extends APIError<TEnvelope> {
    readonly service: TService = service;

    constructor(status: number, body: unknown, headers: Headers = new Headers(), message?: string) {
      const envelope = isEnvelope(body) ? body : undefined;
      const summary = envelope === undefined ? summarizeForeignBody(body) : summarize(envelope);
      super({ status, headers, envelope, rawBody: body, summary, message });
    }
  }

  /** A class whose instances always carry the envelope: constructing one from another body is a mistake. */
  class EnvelopeError extends ServiceError {
    declare readonly body: TEnvelope;

    constructor(status: number, body: TEnvelope, headers?: Headers, message?: string) {
      if (!isEnvelope(body)) {
        throw new TypeError(`Expected the ${service} error envelope as body`);
      }
      super(status, body, headers, message);
    }
  }

  class RateLimitError extends ServiceError {
    override readonly name = "RateLimitError";
    declare readonly retryAfter: number | null;

    constructor(status: number, body: unknown, headers: Headers = new Headers(), message?: string) {
      super(status, body, headers, message);
      const ms = parseRetryAfterMs(headers);
      this.retryAfter = ms === null ? null : ms / 1000;
    }
  }
  class InternalServerError extends ServiceError {
    override readonly name = "InternalServerError";
  }

  // One class per status that is only thrown with the envelope, each named after its key.
  const envelopeClassByStatus: Record<number, typeof EnvelopeError> = {};
  const classes: Record<string, typeof EnvelopeError> = {};
  for (const [name, status] of Object.entries(ENVELOPE_STATUSES)) {
    envelopeClassByStatus[status] = classes[name] = withClassName(
      class extends EnvelopeError {
        override readonly name = name;
      },
      name,
    );
  }
  // Shown by `util.inspect` and `console.log` as the class of an error: the public name, not the one written here.
  withClassName(ServiceError, "APIError");

  function fromResponse({ status, headers }: Pick<Response, "status" | "headers">, body: unknown): ServiceError {
    if (status === 429) {
      return new RateLimitError(status, body, headers);
    }
    if (status >= 500) {
      return new InternalServerError(status, body, headers);
    }
    const EnvelopeClass = envelopeClassByStatus[status];
    return EnvelopeClass !== undefined && isEnvelope(body)
      ? new EnvelopeClass(status, body, headers)
      : new ServiceError(status, body, headers);
  }

  return {
    ...classes,
    APIError: ServiceError,
    RateLimitError,
    InternalServerError,
    fromResponse,
  } as unknown as ServiceErrors<TService, TEnvelope>;
}

/**
 * Gives a class the name its instances carry, set explicitly so that `console.log(error)` prints `NotFoundError: ...`
 * rather than the name of the class it was built from (and so that a minifier's renaming does not show).
 */
function withClassName<T extends abstract new (...args: never[]) => unknown>(errorClass: T, name: string): T {
  Object.defineProperty(errorClass, "name", { value: name, configurable: true });
  return errorClass;
}
