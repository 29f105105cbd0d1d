import type { Transaction } from "kysely";
import type { DatabaseSchema, InboxRow } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";

/** An inbox's changeable settings as stored: `metadata` is a JSON object, or null for none. */
export interface InboxSettings {
  displayName: string | null;
  metadata: string | null;
}

/**
 * Changes one inbox of a pod in one transaction: the row is locked, `change` computes the new settings from the
 * current ones (a merge, so two updates at once each see the other's result), and the row is written back. Null when
 * the pod has no such inbox.
 */
export async function updateInbox(
  trx: Transaction<DatabaseSchema>,
  dialect: SqlDialect,
  podId: string,
  inboxId: string,
  change: (current: InboxRow) => InboxSettings,
  at: string,
): Promise<InboxRow | null> {
  const current = await dialect
    .lockRows(trx.selectFrom("inboxes").selectAll().where("pod_id", "=", podId).where("inbox_id", "=", inboxId))
    .executeTakeFirst();
  if (!current) {
    return null;
  }
  const settings = change(current);
  return trx
    .updateTable("inboxes")
    .set({ display_name: settings.displayName, metadata: settings.metadata, updated_at: at })
    .where("seq", "=", current.seq)
    .returningAll()
    .executeTakeFirstOrThrow();
}
