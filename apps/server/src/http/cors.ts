import type { Context, MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { answerHeaders } from "./answer.ts";

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
const EXPOSED = EXPOSED_HEADERS.join(",");

/**
 * Any origin may call the APIs (a key, not a cookie, is the credential): every answer says so, with the headers
 * `cors` adds to an answer that is not a preflight, set before the answer exists (`cors` writes them to `c.res`, which
 * makes Hono build a placeholder response and copy it into the real one, on every request).
 */
export function allowAnyOrigin(c: Context): void {
  const headers = answerHeaders(c);
  headers["access-control-allow-origin"] = "*";
  headers["access-control-expose-headers"] = EXPOSED;
}

/** Answers CORS preflights (OPTIONS) with Hono's `cors`, before authentication; browsers cache them ten minutes. */
export const answerPreflight = (): MiddlewareHandler =>
  cors({ origin: "*", exposeHeaders: EXPOSED_HEADERS, maxAge: 600 });
