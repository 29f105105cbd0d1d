import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

// Every header a client reads from an answer: a browser on another origin sees only these. The clients need
// `X-Should-Retry` to stop retrying a conflict, and `Allow` names a path's methods on a 405.
const EXPOSED_HEADERS = [
  "X-Request-Id",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Retry-After",
  "X-Should-Retry",
  "Allow",
];

/**
 * Any origin may call the APIs (a key, not a cookie, is the credential). Preflights are answered by Hono's `cors`,
 * here, before authentication, and cached by browsers for ten minutes.
 */
export function allowAnyOrigin(): MiddlewareHandler {
  const preflight = cors({ origin: "*", exposeHeaders: EXPOSED_HEADERS, maxAge: 600 });
  const exposedHeaders = EXPOSED_HEADERS.join(",");
  return (c, next) => {
    if (c.req.method === "OPTIONS") {
      return preflight(c, next);
    }
    // The headers `cors` adds to every other answer, added before the answer exists: `cors` writes to `c.res`,
    // which makes Hono build a placeholder response and copy it into the real one, on every request.
    c.header("Access-Control-Allow-Origin", "*");
    c.header("Access-Control-Expose-Headers", exposedHeaders);
    return next();
  };
}
