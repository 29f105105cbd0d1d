import type { Context } from "hono";
import { peerAddress } from "./peer-address.ts";

/** The `X-Forwarded-*` headers a proxy in front appends to. */
export type ForwardedHeader = "x-forwarded-for" | "x-forwarded-host" | "x-forwarded-proto";

/**
 * A forwarded header's values, nearest hop first, or none when the peer is not one of `trusted`. Each proxy appends
 * its value to what it was sent, so only the values on the right were written by proxies: a value further left may
 * be the client's own invention. `X-Forwarded-For` is walked past the trusted proxies' addresses; the host and
 * protocol are read from the first value alone, the one the trusted peer wrote.
 */
export function forwardedValues(c: Context, trusted: ReadonlySet<string>, header: ForwardedHeader): string[] {
  if (trusted.size === 0 || !trusted.has(peerAddress(c))) {
    return [];
  }
  return (c.req.header(header) ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .toReversed();
}
