import { BlockList, isIP } from "node:net";

/**
 * Loopback, private, link-local, shared, multicast, reserved and translated ranges: never a public webhook receiver. An
 * IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is checked against the IPv4 ranges by `BlockList` itself; a rule for
 * the whole mapped range would also match every IPv4 address.
 */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  // The unspecified and loopback addresses, and the deprecated IPv4-compatible ones (`::a.b.c.d`).
  ["::", 96],
  ["::1", 128],
  // Discard-only.
  ["100::", 64],
  // NAT64, well-known and local-use: they reach whatever IPv4 address they embed.
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  // Documentation.
  ["2001:db8::", 32],
  // 6to4: it reaches the IPv4 address it embeds.
  ["2002::", 16],
  // Unique local, link-local, deprecated site-local, multicast.
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv6");
}

export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  return family === 0 ? false : NON_PUBLIC.check(address, family === 4 ? "ipv4" : "ipv6");
}

export class DestinationRefusedError extends Error {
  override name = "DestinationRefusedError";
}

/**
 * Refuses a delivery to `host` (as the URL names it) when any of the addresses it resolved to is non-public, unless
 * private destinations are allowed. Every address is checked: a connection may be made to any of them.
 */
export function enforceDestinationPolicy(host: string, addresses: readonly string[], allowPrivate: boolean): void {
  if (allowPrivate) {
    return;
  }
  const refused = addresses.find(isNonPublicAddress);
  if (refused) {
    throw new DestinationRefusedError(
      `${host} is a private or loopback address (${refused}); start the server with --allow-private-webhooks to deliver there.`,
    );
  }
}
