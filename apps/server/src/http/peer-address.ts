import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

/** The address of the peer the request came over: the client, or a proxy in front of it. */
export function peerAddress(c: Context): string {
  try {
    // IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d.
    return (getConnInfo(c).remote.address ?? "unknown").replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  } catch {
    return "unknown";
  }
}
