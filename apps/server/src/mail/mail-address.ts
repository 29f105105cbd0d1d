// How mail addresses compare, and how a mailbox with a display name is written (RFC 5322).

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
