import type { Context } from "hono";
import { forwardedValues } from "./forwarded-header.ts";
import { peerAddress } from "./peer-address.ts";

/**
 * The address a request comes from: the peer's, unless the peer is one of `trusted` (proxies in front, such as a load
 * balancer), in which case the nearest address in `X-Forwarded-For` that is not a trusted proxy (see
 * forwarded-header.ts). A client cannot name itself anything else by sending the header: the header is read only from
 * a trusted peer, and from the right, where the proxies append.
 */
export function clientAddressOf(c: Context, trusted: ReadonlySet<string>): string {
  const nearestUntrusted = forwardedValues(c, trusted, "x-forwarded-for").find((address) => !trusted.has(address));
  return nearestUntrusted ?? peerAddress(c);
}
