import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/** Loopback, private, link-local, shared, multicast and reserved ranges: never a public webhook receiver. */
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
  ["::", 128],
  ["::1", 128],
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
  ["fc00::", 7],
  ["fe80::", 10],
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
 * Refuses a delivery whose host is or resolves to a non-public address, unless private destinations are allowed.
 * The check resolves the name itself; the request resolves it again (a rebinding DNS server could answer
 * differently in between, which a local server accepts).
 */
export async function checkDestination(url: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) {
    return;
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  const refused = addresses.find(isNonPublicAddress);
  if (refused) {
    throw new DestinationRefusedError(
      `${url.host} is a private or loopback address (${refused}); start the server with --allow-private-webhooks to deliver there.`,
    );
  }
}
