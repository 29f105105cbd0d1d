import type { Transaction } from "kysely";
import type { DatabaseSchema } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";

const parseList = (json: string): string[] => JSON.parse(json) as string[];

/** The address of a `From` value, which may carry a display name (`Ada <ada@example.com>`). */
const addressOf = (sender: string): string => (/<([^<>]+)>\s*$/.exec(sender)?.[1] ?? sender).trim().toLowerCase();

/**
 * Deletes an inbox's copies of some messages for good, with their attachments, sources and the mail of theirs still
 * queued for the relay, then brings each of their threads back in line with the messages left (a thread left empty
 * goes too). Copies other inboxes hold are theirs and stay. Answers the ids of the copies it found and deleted.
 */
export async function deleteMessageCopies(
  trx: Transaction<DatabaseSchema>,
  dialect: SqlDialect,
  inboxId: string,
  messageIds: readonly string[],
  at: string,
): Promise<string[]> {
  if (messageIds.length === 0) {
    return [];
  }
  const found = await dialect
    .lockRows(
      trx
        .selectFrom("messages")
        .select(["message_id", "thread_id"])
        .where("inbox_id", "=", inboxId)
        .where(dialect.inList("message_id", dialect.listParam(messageIds))),
    )
    .execute();
  if (found.length === 0) {
    return [];
  }
  const ids = found.map((row) => row.message_id);
  // One parameter for the whole list: a thread's many messages never run into a limit on statement parameters.
  const list = dialect.listParam(ids);
  for (const table of ["attachments", "message_sources", "recipient_deliveries", "messages"] as const) {
    await trx.deleteFrom(table).where("inbox_id", "=", inboxId).where(dialect.inList("message_id", list)).execute();
  }
  for (const threadId of new Set(found.map((row) => row.thread_id))) {
    await refreshThread(trx, dialect, inboxId, threadId, at);
  }
  return ids;
}

/**
 * Makes a thread of the inbox what its remaining messages say: their count, newest timestamp, labels and parties;
 * deletes it when none is left.
 */
async function refreshThread(
  trx: Transaction<DatabaseSchema>,
  dialect: SqlDialect,
  inboxId: string,
  threadId: string,
  at: string,
): Promise<void> {
  const thread = await dialect
    .lockRows(trx.selectFrom("threads").select("seq").where("inbox_id", "=", inboxId).where("thread_id", "=", threadId))
    .executeTakeFirst();
  if (!thread) {
    return;
  }
  const messages = await trx
    .selectFrom("messages")
    .select(["labels", "sender", "to_addresses", "cc_addresses", "bcc_addresses", "timestamp"])
    .where("inbox_id", "=", inboxId)
    .where("thread_id", "=", threadId)
    .orderBy("created_at", "asc")
    .orderBy("seq", "asc")
    .execute();
  if (messages.length === 0) {
    await trx.deleteFrom("threads").where("seq", "=", thread.seq).execute();
    return;
  }
  const participants = new Set([inboxId]);
  for (const message of messages) {
    for (const address of [
      addressOf(message.sender),
      ...parseList(message.to_addresses),
      ...parseList(message.cc_addresses),
      ...parseList(message.bcc_addresses),
    ]) {
      participants.add(address.toLowerCase());
    }
  }
  await trx
    .updateTable("threads")
    .set({
      message_count: messages.length,
      last_message_at:
        messages
          .map((message) => message.timestamp)
          .sort()
          .at(-1) ?? at,
      labels: JSON.stringify([...new Set(messages.flatMap((message) => parseList(message.labels)))]),
      participants: JSON.stringify([...participants]),
      updated_at: at,
    })
    .where("seq", "=", thread.seq)
    .execute();
}

/** Deletes a thread of the inbox with all its messages there; false when the inbox has no such thread. */
export async function deleteThread(
  trx: Transaction<DatabaseSchema>,
  dialect: SqlDialect,
  inboxId: string,
  threadId: string,
  at: string,
): Promise<boolean> {
  const thread = await dialect
    .lockRows(trx.selectFrom("threads").select("seq").where("inbox_id", "=", inboxId).where("thread_id", "=", threadId))
    .executeTakeFirst();
  if (!thread) {
    return false;
  }
  const messages = await trx
    .selectFrom("messages")
    .select("message_id")
    .where("inbox_id", "=", inboxId)
    .where("thread_id", "=", threadId)
    .execute();
  await deleteMessageCopies(
    trx,
    dialect,
    inboxId,
    messages.map((row) => row.message_id),
    at,
  );
  await trx.deleteFrom("threads").where("seq", "=", thread.seq).execute();
  return true;
}
