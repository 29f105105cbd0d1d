/** Statuses worth retrying: timeouts, lock/conflict races, rate limits and server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * The server's `x-should-retry` header wins over the status table, so the API can veto or force a retry. A server
 * that asks for a longer wait than `MAX_RETRY_AFTER_MS` (a daily quota, say) gets no retry at all: retrying sooner
 * than asked would only spend the caller's other limits, and the error carries the wait for the caller to decide.
 */
export function shouldRetry(response: Pick<Response, "status" | "headers">): boolean {
  const override = response.headers.get("x-should-retry");
  if (override === "true" || override === "false") {
    return override === "true";
  }
  // The status first: a success, the common case, reads no more headers.
  return isRetryableStatus(response.status) && !((parseRetryAfterMs(response.headers) ?? 0) > MAX_RETRY_AFTER_MS);
}

export const INITIAL_RETRY_DELAY_MS = 500;
export const MAX_RETRY_DELAY_MS = 8_000;
/** The longest server-suggested wait a retry honours; a longer one means no retry (see `shouldRetry`). */
export const MAX_RETRY_AFTER_MS = 60_000;

export interface RetryDelayOptions {
  /** 0 for the first retry. */
  attempt: number;
  /** Headers of the response that triggered the retry, if any. */
  headers?: Headers | undefined;
  /** Returns a number in [0, 1); injectable so tests can pin the jitter. */
  random?: () => number;
}

/** Milliseconds to wait before the next attempt. */
export function retryDelay({ attempt, headers, random = Math.random }: RetryDelayOptions): number {
  const suggested = headers ? parseRetryAfterMs(headers) : null;
  if (suggested !== null && suggested <= MAX_RETRY_AFTER_MS) {
    return suggested;
  }
  const backoff = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** attempt, MAX_RETRY_DELAY_MS);
  // Up to 25% jitter downwards, so clients that failed together don't retry together.
  return backoff * (1 - random() * 0.25);
}

/**
 * The wait the server asked for, in ms: `retry-after-ms` first, then `Retry-After` as (possibly fractional)
 * seconds or an HTTP-date. Returns null when neither header holds a usable, non-negative value.
 */
export function parseRetryAfterMs(headers: Headers, now: number = Date.now()): number | null {
  const ms = parseNumber(headers.get("retry-after-ms"));
  if (ms !== null) {
    return ms;
  }
  const value = headers.get("retry-after");
  const seconds = parseNumber(value);
  if (seconds !== null) {
    return seconds * 1000;
  }
  // NaN (no header, or not a date) and a date already past both fail the test.
  const wait = Date.parse(value ?? "") - now;
  return wait >= 0 ? wait : null;
}

/** A finite, non-negative number; Number() rather than parseFloat() so "10abc" is rejected rather than read as 10. */
function parseNumber(value: string | null): number | null {
  const n = Number(value);
  return value?.trim() && n >= 0 && n < Number.POSITIVE_INFINITY ? n : null;
}
