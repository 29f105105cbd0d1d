import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { answerHeaders } from "./answer.ts";
import { ApiProblem } from "./api-problem.ts";
import type { RateLimitState } from "./rate-limiter.ts";
import type { ServiceEnv } from "./service-env.ts";

/** The request a rate limit counts: its caller, or only when there is none, the address it came from. */
export interface RateLimitedRequest<Caller> {
  caller: Caller | null;
  method: string;
  clientAddress: string;
}

/** Counts a request against its bucket and says where that bucket stands. */
export type RateLimit<Caller> = (request: RateLimitedRequest<Caller>) => Promise<RateLimitState>;

/**
 * Counts the request against its bucket, and tells every answer where that bucket stands (`X-RateLimit-*`). A caller
 * over the limit is refused 429 with `Retry-After`; a request without a valid key is counted against its address but
 * answered 401 by the authentication after this, which is what it most needs to hear.
 */
export async function countRequest<Caller>(
  c: Context<ServiceEnv<Caller>>,
  rateLimit: RateLimit<Caller>,
  caller: Caller | null,
): Promise<void> {
  const limit = await rateLimit({
    caller,
    method: c.req.method,
    clientAddress: caller === null ? c.get("clientAddress") : "",
  });
  setLimitHeaders(c, limit);
  if (limit.limited && caller !== null) {
    throw tooManyRequests(limit);
  }
}

/**
 * Limits an operation anyone may call by the address it comes from alone: a key sent along is not looked at, so
 * neither the key's own limits nor its holder are involved.
 */
export function limitRateByAddress<Caller>(rateLimit: (clientAddress: string) => Promise<RateLimitState>) {
  return createMiddleware<ServiceEnv<Caller>>(async (c, next) => {
    const limit = await rateLimit(c.get("clientAddress"));
    setLimitHeaders(c, limit);
    if (limit.limited) {
      throw tooManyRequests(limit);
    }
    await next();
  });
}

/** Tells the answer where the request's bucket stands (`X-RateLimit-*`). */
export function setLimitHeaders(c: Context, limit: RateLimitState) {
  const headers = answerHeaders(c);
  headers["x-ratelimit-limit"] = String(limit.limit);
  headers["x-ratelimit-remaining"] = String(limit.remaining);
  headers["x-ratelimit-reset"] = String(limit.resetAt);
}

/** The 429 answer, with `Retry-After`, to a request over `limit`. */
export function tooManyRequests(limit: RateLimitState): ApiProblem {
  const unit = limit.limit === 1 ? limit.unit.replace(/s$/, "") : limit.unit;
  return new ApiProblem(429, "RATE_LIMIT_EXCEEDED", `Rate limit of ${limit.limit} ${unit} per ${limit.per} exceeded.`, {
    retryAfterSeconds: limit.retryAfterSeconds,
    hint: `Try again in ${limit.retryAfterSeconds} seconds.`,
  });
}
