import type { Context } from "hono";
import { forwardedValues } from "./forwarded-header.ts";

const FORWARDED_PROTOCOLS = new Set(["http", "https"]);

/** The value the trusted peer wrote into `header` (the last, since proxies append), or "" when it wrote none. */
const nearestValue = (c: Context, trusted: ReadonlySet<string>, header: "x-forwarded-host" | "x-forwarded-proto") =>
  forwardedValues(c, trusted, header)[0]?.toLowerCase() ?? "";

/** `host` as the origin of a URL of `protocol`, or null when it is no bare host with an optional port. */
function originOf(protocol: string, host: string): string | null {
  if (host === "" || /[/?#@\\\s]/.test(host)) {
    return null;
  }
  try {
    const url = new URL(`${protocol}://${host}`);
    return url.host === "" ? null : url.origin;
  } catch {
    return null;
  }
}

/**
 * The origin the client reached, as a proxy in front tells it with `X-Forwarded-Proto` and `X-Forwarded-Host`: read
 * only from a peer among `trusted`, and only the value that peer appended (see forwarded-header.ts), so that no other
 * sender can make the server link to a host of its choosing. Null when the peer is not trusted, or names no valid
 * origin; the request's own address stands then.
 */
export function forwardedOriginOf(c: Context, trusted: ReadonlySet<string>): string | null {
  const protocol = nearestValue(c, trusted, "x-forwarded-proto");
  const host = nearestValue(c, trusted, "x-forwarded-host");
  if (protocol === "" && host === "") {
    return null;
  }
  const own = new URL(c.req.url);
  const chosenProtocol = protocol === "" ? own.protocol.slice(0, -1) : protocol;
  if (!FORWARDED_PROTOCOLS.has(chosenProtocol)) {
    return null;
  }
  return originOf(chosenProtocol, host === "" ? own.host : host);
}
