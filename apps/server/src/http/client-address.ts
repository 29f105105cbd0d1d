import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

/**
 * The address a request comes from: the peer's, unless the peer is one of `trusted` (proxies in front, such as a load
 * balancer), in which case the nearest address in `X-Forwarded-For` that is not a trusted proxy. A client cannot name
 * itself anything else by sending the header, since the header is read only from a trusted peer.
 */
export function clientAddressOf(c: Context, trusted: ReadonlySet<string>): string {
  const peer = peerAddress(c);
  if (!trusted.has(peer)) {
    return peer;
  }
  const forwarded = (c.req.header("x-forwarded-for") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  for (const address of forwarded.toReversed()) {
    if (!trusted.has(address)) {
      return address;
    }
  }
  return peer;
}

/** The address of the peer the request came over: the client, or a proxy in front of it. */
export function peerAddress(c: Context): string {
  try {
    // IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d.
    return (getConnInfo(c).remote.address ?? "unknown").replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  } catch {
    return "unknown";
  }
}
