import { createMiddleware } from "hono/factory";
import type { Authentication } from "./authenticate.ts";
import { identifyCaller, requireCaller } from "./authenticate.ts";
import type { RateLimit } from "./rate-limit.ts";
import { countRequest } from "./rate-limit.ts";
import type { ServiceEnv } from "./service-env.ts";

/**
 * Lets a request on to its operation, in this order: learns its caller from its key, counts it against its rate limit
 * (the caller's, or its address's without a valid key), then refuses it 401 without a valid key; past this, `caller`
 * is set. One middleware for the three steps rather than one each: every layer of Hono middleware costs a few promise
 * round trips on every request.
 */
export function admitCaller<Caller>(authentication: Authentication<Caller>, rateLimit?: RateLimit<Caller>) {
  return createMiddleware<ServiceEnv<Caller>>(async (c, next) => {
    const identity = await identifyCaller(c, authentication);
    if (rateLimit) {
      await countRequest(c, rateLimit, identity.caller);
    }
    c.set("caller", requireCaller(c, identity, authentication.failures));
    await next();
  });
}
