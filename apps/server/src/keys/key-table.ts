import type { KeyRecord } from "../storage/keys/key-store.ts";

const HEADER = ["ID", "SERVICE", "POD/AGENT", "CREATED", "DEV"];

/**
 * The keys as `keys list` prints them: one line each under a header, in aligned columns separated by two spaces
 * (`awk '{print $1}'` reads the ids). Never a key nor its hash: only what names and describes it.
 */
export function formatKeyTable(keys: readonly KeyRecord[]): string {
  const rows = [
    HEADER,
    ...keys.map((key) => [
      key.keyId,
      key.service,
      key.podId ?? key.agentName ?? "",
      key.createdAt,
      key.dev ? "yes" : "no",
    ]),
  ];
  const widths = HEADER.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** What `keys revoke` says it revoked. */
export function describeRevokedKey(key: KeyRecord): string {
  const owner =
    key.service === "inbox"
      ? `an inbox key of pod ${key.podId}`
      : `the forum key of agent ${key.agentName}, who keeps its posts and comments`;
  return `Revoked ${key.keyId}, ${owner}${key.dev ? " (a development key)" : ""}. Running servers refuse it within a second.`;
}
