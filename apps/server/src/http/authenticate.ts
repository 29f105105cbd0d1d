import { createMiddleware } from "hono/factory";
import { ApiProblem } from "./api-problem.ts";
import type { AuthFailureLimiter } from "./auth-failure-limiter.ts";
import { setLimitHeaders, tooManyRequests } from "./rate-limit.ts";
import type { ServiceEnv } from "./service-env.ts";

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** Resolves an API key to its caller, or null when the key is unknown. */
export type Authenticate<Caller> = (apiKey: string) => Promise<Caller | null>;

/**
 * Learns who sends the request from its `Authorization: Bearer` key, without refusing anything yet: a request
 * without a valid key is still counted against its address by the rate limit before it is refused. An address that
 * has sent too many requests without a valid key (`failures`) is refused 429 first, before its key costs anything.
 */
export function identifyCaller<Caller>(
  authenticate: Authenticate<Caller>,
  queryKeyPaths: readonly string[] = [],
  failures?: AuthFailureLimiter,
) {
  const queryKeyAllowed = new Set(queryKeyPaths);
  return createMiddleware<ServiceEnv<Caller>>(async (c, next) => {
    const standing = failures?.check(c.get("clientAddress"));
    if (standing?.limited) {
      setLimitHeaders(c, standing);
      throw tooManyRequests(standing);
    }
    // Where a client cannot set headers (a browser's WebSocket), the key may come as `?api_key=`.
    const key =
      BEARER.exec(c.req.header("authorization") ?? "")?.[1] ??
      (queryKeyAllowed.has(c.req.path) ? c.req.query("api_key") || undefined : undefined);
    c.set("identity", { caller: key ? await authenticate(key) : null, keySent: key !== undefined });
    await next();
  });
}

/** Refuses a request without a valid key with 401, counted in `failures`; past this, `caller` is set. */
export function requireCaller<Caller>(failures?: AuthFailureLimiter) {
  return createMiddleware<ServiceEnv<Caller>>(async (c, next) => {
    const { caller, keySent } = c.get("identity");
    if (caller === null) {
      failures?.record(c.get("clientAddress"));
      throw keySent
        ? new ApiProblem(401, "INVALID_API_KEY", "The API key is not valid.", {
            hint: "Check your API key; it does not match any key of this service.",
          })
        : new ApiProblem(401, "MISSING_API_KEY", "Send the API key as 'Authorization: Bearer <key>'.", {
            hint: "Add the header 'Authorization: Bearer YOUR_API_KEY'.",
          });
    }
    c.set("caller", caller);
    await next();
  });
}
