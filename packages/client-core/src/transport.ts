import { connectionFailureMessage } from "./connection-failure.js";
import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } from "./errors.js";
import type { Hooks } from "./hooks.js";
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
  /** More hooks, told after the options' own: those of `createLogger()`. */
  logger?: Hooks | undefined;
  /** Waits between attempts; injectable so tests need not wait. Should reject when `signal` aborts. */
  sleep?: Sleep | undefined;
}

/** Methods that HTTP defines as safe to repeat. */
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/**
 * A fetch with timeouts, retries and idempotency keys, for openapi-fetch's `fetch` option. It returns error
 * responses as they are; the clients turn them into exceptions.
 *
 * A request that repeats safely (an idempotent method, or one carrying an idempotency key) is retried on connection
 * errors, timeouts, 408, 409, 429 and 5xx. Any other write is retried only when the server cannot have acted on it
 * (408, 429, a refused connection), because repeating it could apply it twice.
 *
 * It tells the hooks of the options, then of the logger, then of the call about every attempt, answer, retry, and
 * failure it gives up on.
 */
export function createTransport(options: TransportOptions = {}): Transport {
  const defaultTimeout = checkTimeout(options.timeout ?? DEFAULT_TIMEOUT_MS);
  const defaultMaxRetries = checkMaxRetries(options.maxRetries ?? DEFAULT_MAX_RETRIES);
  const { idempotencyHeader } = options;
  const sleep = options.sleep ?? defaultSleep;
  // The client's hooks and its logger's, once: a call without hooks of its own then builds no event objects.
  const clientHooks = [options, options.logger].filter(hasHooks);

  return async function transport(request: Request): Promise<Response> {
    const callerSignal = request.signal;
    if (callerSignal.aborted) {
      throw new APIUserAbortError({ cause: callerSignal.reason });
    }
    // Per-call options ride on the request object itself (see RequestOptions), so nothing is copied on the hot path.
    const call = request as Request & RequestOptions;
    const timeout = call.timeout === undefined ? defaultTimeout : checkTimeout(call.timeout);
    const maxRetries = call.maxRetries === undefined ? defaultMaxRetries : checkMaxRetries(call.maxRetries);
    const hooks = hasHooks(call) ? [...clientHooks, call] : clientHooks;
    const { method, headers } = request;

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

    for (let attempt = 1; ; attempt++) {
      const retriesLeft = maxRetries + 1 - attempt;
      // This attempt's signal aborts on the caller's abort or when the timeout fires. A plain listener rather than
      // AbortSignal.any, which costs several microseconds per call in Node. The caller's signal is the Request's
      // own, which lives no longer than the call, so the listener can stay after a success.
      const controller = new AbortController();
      const forward = () => controller.abort(callerSignal.reason);
      callerSignal.addEventListener("abort", forward, { once: true });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new DOMException(`Request timed out after ${timeout} ms.`, "TimeoutError"));
      }, timeout);
      /** This attempt is over: stops its timer and the forwarding of the caller's abort. */
      const end = () => {
        clearTimeout(timer);
        callerSignal.removeEventListener("abort", forward);
      };
      // A body can be read once, so while retries remain a copy is sent and the original kept for the next
      // attempt; the last attempt, or a request without a body, sends the original.
      const sent = retriesLeft > 0 && request.body !== null ? request.clone() : request;
      if (hooks.length > 0) {
        notify(hooks, "onRequest", { request: sent, attempt });
      }

      let response: Response | undefined;
      // Set on every path that reaches the retry below: by the failed attempt, or by the answer to retry.
      let reason!: number | APIConnectionError;
      try {
        // Inside the try, so a fetch that throws rather than rejects is handled the same way.
        response = await (options.fetch ?? fetch)(sent, { signal: controller.signal });
      } catch (error) {
        end();
        if (callerSignal.aborted) {
          throw new APIUserAbortError({ cause: callerSignal.reason });
        }
        const failure = timedOut
          ? new APIConnectionTimeoutError({ message: `Request timed out after ${timeout} ms.`, cause: error })
          : new APIConnectionError({ message: connectionFailureMessage(error, sent), cause: error });
        if (retriesLeft <= 0 || !(replayable || isConnectionRefused(error))) {
          notify(hooks, "onGiveUp", { request: sent, attempt, reason: failure, requestId: null });
          throw failure;
        }
        reason = failure;
      }
      const requestId = response ? response.headers.get("x-request-id") : null;
      if (response) {
        // The timeout covers the wait for headers only; a caller abort still reaches the body of the response.
        clearTimeout(timer);
        if (hooks.length > 0) {
          notify(hooks, "onResponse", { request: sent, response, attempt, requestId });
        }
        if (!shouldRetry(response)) {
          return response;
        }
        reason = response.status;
        if (retriesLeft <= 0 || !(replayable || notProcessed(response))) {
          notify(hooks, "onGiveUp", { request: sent, attempt, reason, requestId });
          return response;
        }
        end();
        // Release the connection: this body will never be read.
        await response.body?.cancel().catch(() => undefined);
      }
      const delay = retryDelay({ attempt: attempt - 1, headers: response?.headers });
      notify(hooks, "onRetry", { request, attempt, delay, reason, requestId });
      await pause(sleep, delay, callerSignal);
    }
  };
}

/** Whether `set` has any hook; an options object or a call's init usually has none. */
function hasHooks(set: Hooks | undefined): set is Hooks {
  return set !== undefined && !!(set.onRequest || set.onResponse || set.onRetry || set.onGiveUp);
}

/** Calls the hook `name` of every set that has it, in order. */
function notify<K extends keyof Hooks>(hooks: readonly Hooks[], name: K, event: HookEvent<K>): void {
  for (const set of hooks) {
    (set[name] as ((event: HookEvent<K>) => void) | undefined)?.(event);
  }
}

type HookEvent<K extends keyof Hooks> = Parameters<NonNullable<Hooks[K]>>[0];

/** Statuses that say the server did not act on the request, so even a non-idempotent write may be sent again. */
function notProcessed(response: Response): boolean {
  return response.status === 408 || response.status === 429 || response.headers.get("x-should-retry") === "true";
}

/** A refused connection never reached a server, so it is safe to retry whatever the method. */
function isConnectionRefused(error: unknown): boolean {
  return (error as { cause?: { code?: unknown } } | null)?.cause?.code === "ECONNREFUSED";
}

/** Sleeps between attempts; a caller abort ends the wait (the sleep must honour the signal it is given). */
async function pause(sleep: Sleep, ms: number, signal: AbortSignal): Promise<void> {
  if (!signal.aborted) {
    try {
      await sleep(ms, signal);
    } catch (error) {
      if (!signal.aborted) {
        throw error;
      }
    }
  }
  if (signal.aborted) {
    throw new APIUserAbortError({ cause: signal.reason });
  }
}

/**
 * Waits with a timer that the signal cancels. The listener may outlive the wait: the signal is the call's own
 * Request's, which lives no longer than the call.
 */
const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** Validates a timeout: a positive number of milliseconds. */
export function checkTimeout(timeout: unknown): number {
  if (!(typeof timeout === "number" && timeout > 0 && timeout < Number.POSITIVE_INFINITY)) {
    throw new RangeError(`timeout must be a positive number, got ${String(timeout)}`);
  }
  return timeout;
}

/** Validates a retry count: a non-negative integer. */
export function checkMaxRetries(maxRetries: unknown): number {
  if (!(Number.isInteger(maxRetries) && (maxRetries as number) >= 0)) {
    throw new RangeError(`maxRetries must be a non-negative integer, got ${String(maxRetries)}`);
  }
  return maxRetries as number;
}

/** A fresh key: a UUID, or 32 random hex digits where crypto.randomUUID is missing (browser pages on plain http). */
function randomKey(): string {
  const { crypto } = globalThis;
  return (
    crypto.randomUUID?.() ??
    Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => (byte + 256).toString(16).slice(1)).join("")
  );
}
