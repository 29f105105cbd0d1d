import { type Deadline, Deadlines } from "./deadlines.js";
import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } from "./errors.js";
import type { Hooks } from "./hooks.js";
import { type Logger, type LogLevel, redactHeaders, redactUrl } from "./logger.js";
import { retryDelay, shouldRetry } from "./retry.js";

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;

/**
 * A fetch as the transport calls it: like `globalThis.fetch`, with a `Request` and an init whose `signal` carries
 * the attempt's timeout and the caller's abort. A custom fetch must pass that signal on (or honour it itself).
 */
export type Fetch = (input: Request, init?: RequestInit) => Promise<Response>;

/** What openapi-fetch's `fetch` option calls, with the `Request` it built for one call. */
export type Transport = (request: Request) => Promise<Response>;

/** Waits `ms`; rejects early when `signal` (the caller's, if the call has one) aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * Options of a single call. openapi-fetch copies unknown init keys onto its Request, where the transport reads them.
 * A call's hooks run after the client's.
 */
export interface RequestOptions extends Hooks {
  /** Aborts the call, including any wait between retries; the call then rejects with `APIUserAbortError`. */
  signal?: AbortSignal | null;
  /** Milliseconds to wait for the response headers, per attempt. */
  timeout?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /** Sent as the idempotency header; when absent, one key is minted per call and reused on every retry. */
  idempotencyKey?: string;
}

export interface TransportOptions extends Hooks {
  /** Defaults to `globalThis.fetch`, looked up on each call so late polyfills and test spies are seen. */
  fetch?: Fetch | undefined;
  /** Per-attempt timeout in ms until the response headers arrive. */
  timeout?: number | undefined;
  /** Retries after the first attempt. */
  maxRetries?: number | undefined;
  /**
   * e.g. "Idempotency-Key": set once per call that is not a GET or HEAD and reused on every retry, so the server
   * can recognise a retried write and apply it once.
   */
  idempotencyHeader?: string | undefined;
  logger?: Logger | undefined;
  /** Lowest level passed to the logger. Default "warn". */
  logLevel?: LogLevel | undefined;
  /** Waits between attempts; injectable so tests need not wait. Should reject when `signal` aborts. */
  sleep?: Sleep | undefined;
}

/** Methods that HTTP defines as safe to repeat. */
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

const LEVELS: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };

/**
 * A fetch with timeouts, retries and idempotency keys, for openapi-fetch's `fetch` option. It returns error
 * responses as they are; the clients turn them into exceptions.
 *
 * A request that repeats safely (an idempotent method, or one carrying an idempotency key) is retried on connection
 * errors, timeouts, 408, 409, 429 and 5xx. Any other write is retried only when the server cannot have acted on it
 * (408, 429, a refused connection), because repeating it could apply it twice.
 *
 * It logs each attempt and answer at debug, each retry at info, and at warn a call that ends without an answer or
 * still failing once its retries are spent. URLs and headers are logged with their credentials redacted.
 */
export function createTransport(options: TransportOptions = {}): Transport {
  const defaultTimeout = checkTimeout(options.timeout ?? DEFAULT_TIMEOUT_MS);
  const defaultMaxRetries = checkMaxRetries(options.maxRetries ?? DEFAULT_MAX_RETRIES);
  // The default sink is the console, reached via globalThis, which biome's noConsole does not flag.
  const logger: Logger = options.logger ?? globalThis.console;
  const prefix = options.logger ? "" : "[pigeonhole] ";
  const level = LEVELS[options.logLevel ?? "warn"];
  const debug = level <= LEVELS.debug;
  const info = level <= LEVELS.info;
  const warn = level <= LEVELS.warn;
  const { onRequest, onResponse, onRetry, idempotencyHeader } = options;
  const sleep = options.sleep ?? defaultSleep;
  const deadlines = new Deadlines();

  return async function transport(request: Request): Promise<Response> {
    const callerSignal = request.signal;
    if (callerSignal.aborted) {
      throw new APIUserAbortError({ cause: callerSignal.reason });
    }
    // Per-call options ride on the request object itself (see RequestOptions), so nothing is copied on the hot path.
    const call = request as Request & RequestOptions;
    const timeout = call.timeout === undefined ? defaultTimeout : checkTimeout(call.timeout);
    const maxRetries = call.maxRetries === undefined ? defaultMaxRetries : checkMaxRetries(call.maxRetries);
    const { method, headers } = request;
    // Log fields shared by every line about this call; built only when a line is written.
    const about = (attempt: number) => ({ method, url: redactUrl(request.url), attempt });

    let replayable = IDEMPOTENT_METHODS.has(method);
    if (idempotencyHeader !== undefined && method !== "GET" && method !== "HEAD") {
      if (call.idempotencyKey !== undefined) {
        headers.set(idempotencyHeader, call.idempotencyKey);
      } else if (!headers.has(idempotencyHeader)) {
        // Minted once, before the first attempt: every retry carries the same key, so the server applies it once.
        headers.set(idempotencyHeader, randomKey());
      }
      replayable = true;
    }

    for (let retry = 0; ; retry++) {
      const retriesLeft = maxRetries - retry;
      const attempt = new Attempt(callerSignal, deadlines, timeout);
      // A body can be read once, so while retries remain a copy is sent and the original kept for the next
      // attempt; the last attempt, or a request without a body, sends the original.
      const sent = retriesLeft > 0 && request.body !== null ? request.clone() : request;
      if (debug) {
        logger.debug(`${prefix}request`, { ...about(retry + 1), timeout, headers: redactHeaders(sent.headers) });
      }
      if (onRequest || call.onRequest) {
        const started = { request: sent, attempt: retry + 1 };
        onRequest?.(started);
        call.onRequest?.(started);
      }

      let response: Response | undefined;
      // Set on every path that reaches the retry below: by the failed attempt, or by the answer to retry.
      let reason!: number | APIConnectionError;
      try {
        // Inside the try, so a fetch that throws rather than rejects is handled the same way.
        response = await (options.fetch ?? fetch)(sent, { signal: attempt.signal });
      } catch (error) {
        attempt.end();
        if (callerSignal.aborted) {
          throw new APIUserAbortError({ cause: callerSignal.reason });
        }
        const failure = attempt.timedOut
          ? new APIConnectionTimeoutError({ message: `Request timed out after ${timeout} ms.`, cause: error })
          : new APIConnectionError({ cause: error });
        if (retriesLeft <= 0 || !(replayable || isConnectionRefused(error))) {
          if (warn) {
            logger.warn(`${prefix}no response`, { ...about(retry + 1), reason: failure.name, error: failure.message });
          }
          throw failure;
        }
        reason = failure;
      }
      if (response) {
        // The timeout covers the wait for headers only; a caller abort still reaches the body of the response.
        attempt.stopTimer();
        const requestId = requestIdOf(response);
        if (debug) {
          logger.debug(`${prefix}response`, { ...about(retry + 1), status: response.status, requestId });
        }
        if (onResponse || call.onResponse) {
          const answered = { request: sent, response, attempt: retry + 1, requestId };
          onResponse?.(answered);
          call.onResponse?.(answered);
        }
        const retryable = shouldRetry(response);
        if (retriesLeft <= 0 || !retryable || !(replayable || notProcessed(response))) {
          if (warn && retryable && retry > 0) {
            logger.warn(`${prefix}gave up retrying`, { ...about(retry + 1), status: response.status, requestId });
          }
          return response;
        }
        attempt.end();
        // Release the connection: this body will never be read.
        await response.body?.cancel().catch(() => undefined);
        reason = response.status;
      }
      const delay = retryDelay({ attempt: retry, headers: response?.headers });
      const requestId = response ? requestIdOf(response) : null;
      if (info) {
        logger.info(`${prefix}retrying request`, {
          ...about(retry + 1),
          reason: typeof reason === "number" ? reason : reason.name,
          requestId,
          delayMs: delay,
        });
      }
      const retrying = { request, attempt: retry + 1, delay, reason, requestId };
      onRetry?.(retrying);
      call.onRetry?.(retrying);
      await pause(sleep, delay, callerSignal);
    }
  };
}

/** One attempt's signal: aborts on the caller's abort or when the timeout fires. */
class Attempt {
  readonly signal: AbortSignal;
  timedOut = false;
  readonly #controller = new AbortController();
  readonly #callerSignal: AbortSignal;
  readonly #deadlines: Deadlines;
  readonly #deadline: Deadline;
  // A plain listener rather than AbortSignal.any, which costs several microseconds per call in Node. The caller's
  // signal here is the Request's own, which lives no longer than the call, so the listener can stay after success.
  readonly #forward = () => this.#controller.abort(this.#callerSignal.reason);

  constructor(callerSignal: AbortSignal, deadlines: Deadlines, ms: number) {
    this.#callerSignal = callerSignal;
    this.signal = this.#controller.signal;
    callerSignal.addEventListener("abort", this.#forward, { once: true });
    this.#deadlines = deadlines;
    this.#deadline = deadlines.start(ms, () => {
      this.timedOut = true;
      this.#controller.abort(new DOMException(`Request timed out after ${ms} ms.`, "TimeoutError"));
    });
  }

  stopTimer(): void {
    this.#deadlines.clear(this.#deadline);
  }

  /** Stops the timer and the forwarding of the caller's abort; this attempt is over. */
  end(): void {
    this.#deadlines.clear(this.#deadline);
    this.#callerSignal.removeEventListener("abort", this.#forward);
  }
}

function requestIdOf(response: Response): string | null {
  return response.headers.get("x-request-id");
}

/** Statuses that say the server did not act on the request, so even a non-idempotent write may be sent again. */
function notProcessed(response: Response): boolean {
  return response.status === 408 || response.status === 429 || response.headers.get("x-should-retry") === "true";
}

/** A refused connection never reached a server, so it is safe to retry whatever the method. */
function isConnectionRefused(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  return typeof cause === "object" && cause !== null && "code" in cause && cause.code === "ECONNREFUSED";
}

/** Sleeps between attempts; a caller abort ends the wait (the sleep must honour the signal it is given). */
async function pause(sleep: Sleep, ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(ms, signal);
  } catch (error) {
    throw signal?.aborted ? new APIUserAbortError({ cause: signal.reason }) : error;
  }
  if (signal?.aborted) {
    throw new APIUserAbortError({ cause: signal.reason });
  }
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Validates a timeout: a positive number of milliseconds. */
export function checkTimeout(timeout: unknown): number {
  return checkNumber(
    timeout,
    "timeout",
    timeout !== 0 && Number.isFinite(timeout),
    "a positive number of milliseconds",
  );
}

/** Validates a retry count: a non-negative integer. */
export function checkMaxRetries(maxRetries: unknown): number {
  return checkNumber(maxRetries, "maxRetries", Number.isInteger(maxRetries), "a non-negative integer");
}

function checkNumber(value: unknown, name: string, valid: boolean, expected: string): number {
  if (typeof value !== "number" || !valid || value < 0) {
    throw new RangeError(`${name} must be ${expected}, got ${String(value)}`);
  }
  return value;
}

/** A fresh key: a UUID, or 32 random hex digits where crypto.randomUUID is missing (browser pages on plain http). */
function randomKey(): string {
  const { crypto } = globalThis;
  return (
    crypto.randomUUID?.() ??
    Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("")
  );
}
