import type { Transaction } from "kysely";
import type { DatabaseSchema, ThreadRow } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";

const parseList = (json: string): string[] => JSON.parse(json) as string[];

/**
 * Gives every message of a thread of the inbox the labels `relabel` makes of its own, and the thread the union of
 * the results, in one transaction (`relabel` may throw to refuse the change, and nothing is written). Messages whose
 * labels do not change keep their `updated_at`. Null when the inbox has no such thread.
 */
export async function relabelThread(
  trx: Transaction<DatabaseSchema>,
  dialect: SqlDialect,
  inboxId: string,
  threadId: string,
  relabel: (labels: string[]) => string[],
  at: string,
): Promise<ThreadRow | null> {
  const thread = await dialect
    .lockRows(trx.selectFrom("threads").selectAll().where("inbox_id", "=", inboxId).where("thread_id", "=", threadId))
    .executeTakeFirst();
  if (!thread) {
    return null;
  }
  const messages = await dialect
    .lockRows(
      trx
        .selectFrom("messages")
        .select(["seq", "labels"])
        .where("inbox_id", "=", inboxId)
        .where("thread_id", "=", threadId)
        .orderBy("created_at", "asc")
        .orderBy("seq", "asc"),
    )
    .execute();
  const union = new Set<string>();
  for (const message of messages) {
    const labels = relabel(parseList(message.labels));
    for (const label of labels) {
      union.add(label);
    }
    const json = JSON.stringify(labels);
    if (json !== message.labels) {
      await trx.updateTable("messages").set({ labels: json, updated_at: at }).where("seq", "=", message.seq).execute();
    }
  }
  const labels = JSON.stringify([...union]);
  if (labels === thread.labels) {
    return thread;
  }
  return trx
    .updateTable("threads")
    .set({ labels, updated_at: at })
    .where("seq", "=", thread.seq)
    .returningAll()
    .executeTakeFirstOrThrow();
}
