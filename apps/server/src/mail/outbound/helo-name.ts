import { isIPv4, isIPv6 } from "node:net";
import { hostname } from "node:os";

/** A host name as SMTP's greeting takes it (RFC 5321 `Domain`): labels of letters, digits and inner `-`. */
const HOST_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** An address in brackets, as SMTP names a host without a name: `[192.0.2.1]`, `[IPv6:2001:db8::1]`. */
function isAddressLiteral(name: string): boolean {
  const inside = /^\[(.+)\]$/.exec(name)?.[1];
  if (inside === undefined) {
    return false;
  }
  return inside.startsWith("IPv6:") ? isIPv6(inside.slice("IPv6:".length)) : isIPv4(inside);
}

/**
 * Checks the name the server gives itself in `EHLO`/`HELO` to the relay; answers what is wrong, or null. It goes on
 * the wire as it is, so nothing but a host name or an address literal may pass.
 */
export function heloNameProblem(name: string): string | null {
  if ((name.length <= 253 && HOST_NAME.test(name)) || isAddressLiteral(name)) {
    return null;
  }
  return `'${name}' is not a host name such as mail.example.com, nor an address literal such as [192.0.2.1].`;
}

/**
 * The machine's host name as a greeting gives it: an address in brackets, and a name SMTP cannot take (such as one with
 * `_`) as the loopback address, which is what Nodemailer says when it is given no name.
 */
export function machineHeloName(name: string = hostname()): string {
  if (isIPv4(name)) {
    return `[${name}]`;
  }
  return heloNameProblem(name) === null ? name.toLowerCase() : "[127.0.0.1]";
}
