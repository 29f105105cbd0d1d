import type { Context } from "hono";
import { ApiProblem } from "./api-problem.ts";
import type { AuthFailureLimiter } from "./auth-failure-limiter.ts";
import { setLimitHeaders, tooManyRequests } from "./rate-limit.ts";
import type { Identity, ServiceEnv } from "./service-env.ts";

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** Resolves an API key to its caller, or null when the key is unknown. */
export type Authenticate<Caller> = (apiKey: string) => Promise<Caller | null>;

/** How a service learns who sends a request. */
export interface Authentication<Caller> {
  authenticate: Authenticate<Caller>;
  /** Paths that also accept the key as `?api_key=`. */
  queryKeyPaths: ReadonlySet<string>;
  /** Requests without a valid key, counted per client address. */
  failures?: AuthFailureLimiter;
}

/**
 * Learns who sends the request from its `Authorization: Bearer` key, without refusing anything yet: a request
 * without a valid key is still counted against its address by the rate limit before it is refused. An address that
 * has sent too many requests without a valid key is refused 429 first, before its key costs anything.
 */
export async function identifyCaller<Caller>(
  c: Context<ServiceEnv<Caller>>,
  { authenticate, queryKeyPaths, failures }: Authentication<Caller>,
): Promise<Identity<Caller>> {
  const standing = failures?.check(c.get("clientAddress"));
  if (standing?.limited) {
    setLimitHeaders(c, standing);
    throw tooManyRequests(standing);
  }
  // Where a client cannot set headers (a browser's WebSocket), the key may come as `?api_key=`.
  const key =
    BEARER.exec(c.req.header("authorization") ?? "")?.[1] ??
    (queryKeyPaths.has(c.req.path) ? c.req.query("api_key") || undefined : undefined);
  return { caller: key ? await authenticate(key) : null, keySent: key !== undefined };
}

/** Refuses a request without a valid key with 401, counted in `failures`; answers the caller otherwise. */
export function requireCaller<Caller>(
  c: Context<ServiceEnv<Caller>>,
  { caller, keySent }: Identity<Caller>,
  failures?: AuthFailureLimiter,
): Caller {
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
  return caller;
}
