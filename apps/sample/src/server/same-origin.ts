import type { Context, MiddlewareHandler } from "hono";
import type { Answer, Problem, Service } from "../shared/wire.ts";

/** Methods that only read: a cross-site page can make a browser send them, but cannot read the answer. */
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The media type of a Content-Type header, without its parameters, in lower case. */
function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

function refuse(c: Context, service: Service, status: 403 | 415, message: string): Response {
  const kind = status === 403 ? "forbidden" : "validation";
  const problem: Problem = { service, kind, status, message };
  return c.json({ problem, retries: [] } satisfies Answer<never>, status);
}

/**
 * Lets through only what the sample's own page sends. Its server acts with the API keys it holds, so a request a
 * page of another site makes a visitor's browser send would act with them too:
 * - every request must name one of `ownHosts` in `Host` (`127.0.0.1:<port>`), which a DNS name rebound to
 *   127.0.0.1 does not;
 * - a request that changes something must be JSON, which an HTML form cannot send, and carry its page's `Origin`,
 *   which browsers set on every such request and pages cannot forge: it must be this server's own.
 */
export function sameOriginOnly(service: Service, ownHosts: () => readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header("host") ?? "";
    if (!ownHosts().includes(host)) {
      return refuse(c, service, 403, `The sample answers only requests for ${ownHosts().join(" or ")}.`);
    }
    if (READ_METHODS.has(c.req.method)) {
      return next();
    }
    if (c.req.header("origin") !== `http://${host}`) {
      return refuse(c, service, 403, "The sample accepts changes only from its own page.");
    }
    if (mediaType(c.req.header("content-type")) !== "application/json") {
      return refuse(c, service, 415, "The sample accepts changes only as JSON (Content-Type: application/json).");
    }
    return next();
  };
}
