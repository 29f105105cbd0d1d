import type { Transaction } from "kysely";
import type { DatabaseSchema, MessageRow } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";

const parseList = (json: string): string[] => JSON.parse(json) as string[];

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

/**
 * Gives a message of an inbox the labels `relabel` makes of its current ones, and its thread the union of its
 * messages' labels, in one transaction (`relabel` may throw to refuse the change, and nothing is written). A message
 * whose labels do not change is left as it was, `updated_at` included. Null when the inbox has no such message.
 */
export async function relabelMessage(
  trx: Transaction<DatabaseSchema>,
  dialect: SqlDialect,
  inboxId: string,
  messageId: string,
  relabel: (labels: string[]) => string[],
  at: string,
): Promise<MessageRow | null> {
  const message = await dialect
    .lockRows(
      trx.selectFrom("messages").selectAll().where("inbox_id", "=", inboxId).where("message_id", "=", messageId),
    )
    .executeTakeFirst();
  if (!message) {
    return null;
  }
  const labels = relabel(parseList(message.labels));
  if (sameList(labels, parseList(message.labels))) {
    return message;
  }
  const updated = await trx
    .updateTable("messages")
    .set({ labels: JSON.stringify(labels), updated_at: at })
    .where("seq", "=", message.seq)
    .returningAll()
    .executeTakeFirstOrThrow();

  const thread = await dialect
    .lockRows(trx.selectFrom("threads").select(["thread_id", "labels"]).where("thread_id", "=", message.thread_id))
    .executeTakeFirst();
  if (thread) {
    const messages = await trx
      .selectFrom("messages")
      .select("labels")
      .where("thread_id", "=", thread.thread_id)
      .orderBy("created_at", "asc")
      .orderBy("seq", "asc")
      .execute();
    const union = [...new Set(messages.flatMap((row) => parseList(row.labels)))];
    if (!sameList(union, parseList(thread.labels))) {
      await trx
        .updateTable("threads")
        .set({ labels: JSON.stringify(union), updated_at: at })
        .where("thread_id", "=", thread.thread_id)
        .execute();
    }
  }
  return updated;
}
