import type { AddressList } from "@pigeonhole/inbox-types";

/** The default domain of inbox addresses. */
export const DEFAULT_DOMAIN = "pigeonhole.test";

/** An address list as the API takes it (one address or a list) as a list. */
export const toAddressList = (value: AddressList | undefined): string[] =>
  value === undefined ? [] : typeof value === "string" ? [value] : [...value];

/** Addresses compare without regard to case. */
export const normalizeAddress = (address: string): string => address.trim().toLowerCase();

/** `Display Name <address>`, or the bare address when the inbox has no display name. */
export function formatSender(address: string, displayName: string | null): string {
  if (!displayName) {
    return address;
  }
  const needsQuotes = /[(),.:;<>@[\]\\"]/.test(displayName);
  const name = needsQuotes ? `"${displayName.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"` : displayName;
  return `${name} <${address}>`;
}
