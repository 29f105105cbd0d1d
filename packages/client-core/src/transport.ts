import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } from "./errors.js";
import { createLogger, type Logger, type LogLevel, redactHeaders, redactUrl } from "./logger.js";
import { retryDelay, shouldRetry } from "./retry.js";

/** Per-call timeout in ms; read and stripped by the transport, never sent. */
export const TIMEOUT_HEADER = "x-pigeonhole-timeout";
/** Per-call retry budget; read and stripped by the transport, never sent. */
export const MAX_RETRIES_HEADER = "x-pigeonhole-max-retries";
/** Sent on every attempt after the first, so the server can tell retries apart in its logs. */
export const RETRY_COUNT_HEADER = "x-pigeonhole-retry-count";

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;

/** What openapi-fetch's `createClient({ fetch })` calls: it always hands over a `Request`. */
export type Transport = (input: Request) => Promise<Response>;
export type Fetch = (input: Request) => Promise<Response>;
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface TransportOptions {
  /** Defaults to `globalThis.fetch`, looked up on each call so late polyfills and test spies are seen. */
  fetch?: Fetch;
  /** Per-attempt timeout in ms until the response headers arrive. */
  timeout?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /** e.g. "Idempotency-Key": set once per logical non-GET/HEAD request and reused on every retry. */
  idempotencyHeader?: string;
  logger?: Logger;
  logLevel?: LogLevel;
  /** Waits between attempts; injectable so tests need not wait. Should reject when `signal` aborts. */
  sleep?: Sleep;
}

export interface RequestOptions {
  timeout?: number;
  maxRetries?: number;
}

/** Per-call overrides as headers, for openapi-fetch's `headers` option: `client.GET(path, { headers: requestOptionsHeaders({ timeout: 5000 }) })`. */
export function requestOptionsHeaders({ timeout, maxRetries }: RequestOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  if (timeout !== undefined) {
    headers[TIMEOUT_HEADER] = String(checkTimeout(timeout));
  }
  if (maxRetries !== undefined) {
    headers[MAX_RETRIES_HEADER] = String(checkMaxRetries(maxRetries));
  }
  return headers;
}

/** A fetch with timeouts, retries and idempotency keys. It returns error responses as they are; the clients turn them into exceptions. */
export function createTransport(options: TransportOptions = {}): Transport {
  const defaultTimeout = checkTimeout(options.timeout ?? DEFAULT_TIMEOUT_MS);
  const defaultMaxRetries = checkMaxRetries(options.maxRetries ?? DEFAULT_MAX_RETRIES);
  const logger = createLogger(options.logger, options.logLevel);
  const sleep = options.sleep ?? defaultSleep;

  return async function transport(input: Request): Promise<Response> {
    const fetchImpl: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
    const callerSignal = input.signal;
    if (callerSignal.aborted) {
      throw new APIUserAbortError({ cause: callerSignal.reason });
    }

    const headers = new Headers(input.headers);
    const timeout = readOverride(headers, TIMEOUT_HEADER, defaultTimeout, isValidTimeout, logger);
    const maxRetries = readOverride(headers, MAX_RETRIES_HEADER, defaultMaxRetries, isValidMaxRetries, logger);
    const { idempotencyHeader } = options;
    if (idempotencyHeader && input.method !== "GET" && input.method !== "HEAD" && !headers.has(idempotencyHeader)) {
      // Minted once, before the first attempt: every retry carries the same key, so the server can dedupe a send.
      headers.set(idempotencyHeader, randomUUID());
    }
    // A fresh Request rather than mutating `input`, whose headers may be immutable; it keeps input's body and signal.
    const base = new Request(input, { headers });
    const method = base.method;
    const url = redactUrl(base.url);

    for (let retry = 0; ; retry++) {
      const retriesLeft = maxRetries - retry;
      const attemptHeaders = new Headers(base.headers);
      if (retry > 0) {
        attemptHeaders.set(RETRY_COUNT_HEADER, String(retry));
      }
      const attempt = withTimeout(callerSignal, timeout);
      // Each attempt sends a clone, so the body can be sent again; the last one may consume `base` itself.
      const request = new Request(retriesLeft > 0 ? base.clone() : base, {
        headers: attemptHeaders,
        signal: attempt.signal,
      });
      logger.debug("request", { method, url, attempt: retry + 1, timeout, headers: redactHeaders(attemptHeaders) });

      let response: Response;
      try {
        response = await fetchImpl(request);
      } catch (error) {
        attempt.clearTimer();
        attempt.unlinkCaller();
        if (callerSignal.aborted) {
          throw new APIUserAbortError({ cause: callerSignal.reason });
        }
        const failure = attempt.timedOut()
          ? new APIConnectionTimeoutError({ message: `Request timed out after ${timeout} ms.`, cause: error })
          : new APIConnectionError({ cause: error });
        if (retriesLeft <= 0) {
          throw failure;
        }
        const delay = retryDelay({ attempt: retry });
        logger.info("retrying request", { method, url, attempt: retry + 1, reason: failure.name, delayMs: delay });
        await pause(sleep, delay, callerSignal);
        continue;
      }
      // The timeout covers the wait for headers only; a caller abort keeps reaching the body of a returned response.
      attempt.clearTimer();

      const requestId = response.headers.get("x-request-id");
      logger.debug("response", { method, url, attempt: retry + 1, status: response.status, requestId });
      if (retriesLeft <= 0 || !shouldRetry(response)) {
        return response;
      }
      attempt.unlinkCaller();
      const delay = retryDelay({ attempt: retry, headers: response.headers });
      // Release the connection: this body will never be read.
      await response.body?.cancel().catch(() => undefined);
      logger.info("retrying request", {
        method,
        url,
        attempt: retry + 1,
        status: response.status,
        requestId,
        delayMs: delay,
      });
      await pause(sleep, delay, callerSignal);
    }
  };
}

interface AttemptSignal {
  signal: AbortSignal;
  timedOut(): boolean;
  clearTimer(): void;
  /** Stops forwarding the caller's abort (only the fallback path holds a listener on it). */
  unlinkCaller(): void;
}

/** The caller's signal combined with a per-attempt timeout, with AbortSignal.any where the runtime has it. */
function withTimeout(callerSignal: AbortSignal, ms: number): AttemptSignal {
  const timeoutController = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    timeoutController.abort(new DOMException(`Request timed out after ${ms} ms.`, "TimeoutError"));
  }, ms);

  if (typeof AbortSignal.any === "function") {
    return {
      signal: AbortSignal.any([callerSignal, timeoutController.signal]),
      timedOut: () => timedOut,
      clearTimer: () => clearTimeout(timer),
      // AbortSignal.any holds its sources weakly, so there is nothing to detach.
      unlinkCaller: () => undefined,
    };
  }

  // Fallback for runtimes without AbortSignal.any: forward the caller's abort by hand.
  const forward = () => timeoutController.abort(callerSignal.reason);
  callerSignal.addEventListener("abort", forward, { once: true });
  return {
    signal: timeoutController.signal,
    timedOut: () => timedOut,
    clearTimer: () => clearTimeout(timer),
    unlinkCaller: () => callerSignal.removeEventListener("abort", forward),
  };
}

/** Sleeps between attempts; a caller abort ends the wait at once, even if an injected `sleep` ignores its signal. */
async function pause(sleep: Sleep, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) {
    throw new APIUserAbortError({ cause: signal.reason });
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new APIUserAbortError({ cause: signal.reason }));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([sleep(ms, signal), aborted]);
  } catch (error) {
    if (signal.aborted) {
      throw new APIUserAbortError({ cause: signal.reason });
    }
    throw error;
  } finally {
    if (onAbort) {
      signal.removeEventListener("abort", onAbort);
    }
  }
  if (signal.aborted) {
    throw new APIUserAbortError({ cause: signal.reason });
  }
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function readOverride(
  headers: Headers,
  name: string,
  fallback: number,
  isValid: (n: number) => boolean,
  logger: Logger,
): number {
  const raw = headers.get(name);
  if (raw === null) {
    return fallback;
  }
  headers.delete(name);
  const value = raw.trim() === "" ? Number.NaN : Number(raw);
  if (!isValid(value)) {
    logger.warn(`ignoring invalid ${name} header`, { value: raw });
    return fallback;
  }
  return value;
}

function isValidTimeout(n: number): boolean {
  return Number.isFinite(n) && n > 0;
}

function isValidMaxRetries(n: number): boolean {
  return Number.isInteger(n) && n >= 0;
}

function checkTimeout(timeout: number): number {
  if (!isValidTimeout(timeout)) {
    throw new RangeError(`timeout must be a positive number of milliseconds, got ${timeout}`);
  }
  return timeout;
}

function checkMaxRetries(maxRetries: number): number {
  if (!isValidMaxRetries(maxRetries)) {
    throw new RangeError(`maxRetries must be a non-negative integer, got ${maxRetries}`);
  }
  return maxRetries;
}

/** crypto.randomUUID is missing in insecure browser contexts (plain http), where getRandomValues still works. */
function randomUUID(): string {
  if (typeof globalThis.crypto.randomUUID === "function") {
    return globalThis.crypto.randomUUID();
  }
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40; // version 4
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
