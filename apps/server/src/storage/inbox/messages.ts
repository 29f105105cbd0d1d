import type { Attachment, Message, MessageItem, Thread, ThreadItem } from "@pigeonhole/inbox-types";
import type { ServerDatabase } from "../database.ts";
import { inJsonList } from "../json-list.ts";
import { PreparedQuery } from "../prepared-query.ts";
import type { PageRequest, Positioned } from "./paging.ts";
import { cursorOf, newestFirst } from "./paging.ts";
import { toMessage, toMessageItem, toThreadItem } from "./records.ts";

// Reading the messages and threads of an inbox. They are written by the send transaction (send-transaction.ts).

const attachmentsOfMessages = new PreparedQuery((db, p: { messageIds: string }) =>
  db
    .selectFrom("attachments")
    .select(["message_id", "attachment_id", "filename", "content_type", "size"])
    .where(inJsonList("message_id", p.messageIds))
    .orderBy("message_id")
    .orderBy("position"),
);

const newestMessages = newestFirst("messages", "inbox_id");
const newestThreads = newestFirst("threads", "inbox_id");

const messageOfInbox = new PreparedQuery((db, p: { inboxId: string; messageId: string }) =>
  db.selectFrom("messages").selectAll().where("inbox_id", "=", p.inboxId).where("message_id", "=", p.messageId),
);

const threadOfInbox = new PreparedQuery((db, p: { inboxId: string; threadId: string }) =>
  db.selectFrom("threads").selectAll().where("inbox_id", "=", p.inboxId).where("thread_id", "=", p.threadId),
);

const messagesOfThread = new PreparedQuery((db, p: { threadId: string }) =>
  db
    .selectFrom("messages")
    .selectAll()
    .where("thread_id", "=", p.threadId)
    .orderBy("created_at", "asc")
    .orderBy("seq", "asc"),
);

/** The attachment metadata of these messages, by message id, in the order they were sent. */
async function attachmentsOf(db: ServerDatabase, messageIds: readonly string[]): Promise<Map<string, Attachment[]>> {
  const byMessage = new Map<string, Attachment[]>();
  if (messageIds.length === 0) {
    return byMessage;
  }
  const rows = await attachmentsOfMessages.rows(db, { messageIds: JSON.stringify(messageIds) });
  for (const { message_id, ...attachment } of rows) {
    byMessage.set(message_id, [...(byMessage.get(message_id) ?? []), attachment]);
  }
  return byMessage;
}

export async function listMessages(
  db: ServerDatabase,
  inboxId: string,
  page: PageRequest,
): Promise<Positioned<MessageItem>[]> {
  const rows = await newestMessages(db, inboxId, page);
  const attachments = await attachmentsOf(
    db,
    rows.map((row) => row.message_id),
  );
  return rows.map((row) => ({
    item: toMessageItem(row, attachments.get(row.message_id) ?? []),
    cursor: cursorOf(row),
  }));
}

export async function findMessage(db: ServerDatabase, inboxId: string, messageId: string): Promise<Message | null> {
  const row = await messageOfInbox.first(db, { inboxId, messageId });
  if (!row) {
    return null;
  }
  const attachments = await attachmentsOf(db, [messageId]);
  return toMessage(row, attachments.get(messageId) ?? []);
}

export async function listThreads(
  db: ServerDatabase,
  inboxId: string,
  page: PageRequest,
): Promise<Positioned<ThreadItem>[]> {
  const rows = await newestThreads(db, inboxId, page);
  return rows.map((row) => ({ item: toThreadItem(row), cursor: cursorOf(row) }));
}

/** A thread of the inbox with all its messages, oldest first. */
export async function findThread(db: ServerDatabase, inboxId: string, threadId: string): Promise<Thread | null> {
  const thread = await threadOfInbox.first(db, { inboxId, threadId });
  if (!thread) {
    return null;
  }
  const rows = await messagesOfThread.rows(db, { threadId });
  const attachments = await attachmentsOf(
    db,
    rows.map((row) => row.message_id),
  );
  return {
    ...toThreadItem(thread),
    messages: rows.map((row) => toMessage(row, attachments.get(row.message_id) ?? [])),
  };
}
