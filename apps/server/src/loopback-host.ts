import { BlockList, isIP } from "node:net";

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/**
 * Whether binding `host` listens on loopback only: an address in 127.0.0.0/8, `::1` (an IPv4-mapped form counts as
 * its IPv4 address), or the name `localhost`. Any other name, and the wildcards `0.0.0.0` and `::`, may reach other
 * machines.
 */
export function isLoopbackHost(host: string): boolean {
  if (host.toLowerCase() === "localhost") {
    return true;
  }
  const family = isIP(host);
  return family !== 0 && LOOPBACK.check(host, family === 4 ? "ipv4" : "ipv6");
}
