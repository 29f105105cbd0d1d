import type { Transaction } from "kysely";
import type { DatabaseSchema } from "./schema.ts";
import type { SqlDialect } from "./sql-dialect.ts";

/** The tables whose rows a pod may hold only so many of. */
export type PodCappedTable = "drafts" | "address_list_entries" | "webhooks" | "inbox_api_keys";

/** Where a capped insert counts: the pod's rows of `table`, of which it may hold `maxPerPod`. */
export interface PodCap {
  table: PodCappedTable;
  podId: string;
  maxPerPod: number;
}

/** What a capped insert answers when the pod holds its `maxPerPod` rows already. */
export interface LimitReached {
  limitReached: number;
}

export interface CappedInsertSteps<Inserted, Existing> {
  /** The row the insert would repeat (the same client_id or entry), answered in its place; read under the lock. */
  existing?: () => Promise<Existing | undefined>;
  /** Writes the rows, once the pod has been found to hold fewer than its cap. */
  insert: () => Promise<Inserted>;
}

/**
 * Inserts within the pod's cap of `cap.table` rows, in `trx`: the pod is locked through its key rows while its rows
 * are counted, so that creates racing from several instances wait for each other and the count stays within the cap.
 * Its key rows, not the capped ones: a pod with none yet has none to lock, and creates racing from it would all count
 * zero; every pod has a key (the caller's). They are locked in one order everywhere, so no two creates wait on each
 * other.
 */
export async function cappedInsert<Inserted, Existing = never>(
  trx: Transaction<DatabaseSchema>,
  dialect: SqlDialect,
  cap: PodCap,
  steps: CappedInsertSteps<Inserted, Existing>,
): Promise<Inserted | Existing | LimitReached> {
  await dialect
    .lockRows(trx.selectFrom("inbox_api_keys").select("key_hash").where("pod_id", "=", cap.podId).orderBy("key_hash"))
    .execute();
  const existing = await steps.existing?.();
  if (existing !== undefined) {
    return existing;
  }
  // A statement of its own: after waiting for the locks it sees the rows that the other instance committed.
  const counted = await trx
    .selectFrom(cap.table)
    .select((eb) => eb.fn.countAll<number | string | bigint>().as("rows"))
    .where("pod_id", "=", cap.podId)
    .executeTakeFirstOrThrow();
  if (Number(counted.rows) >= cap.maxPerPod) {
    return { limitReached: cap.maxPerPod };
  }
  return steps.insert();
}
