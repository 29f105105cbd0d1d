import type { RecipientDelivery } from "@pigeonhole/inbox-types";
import type { ServerDatabase } from "../database.ts";
import { PreparedQuery } from "../prepared-query.ts";
import { retryingTransaction } from "../retrying-transaction.ts";
import type { InboxRow, MessageRow, ThreadRow } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import { perDialect } from "../sql-dialect.ts";
import { deleteInbox } from "./inbox-deletion.ts";
import { type InboxSettings, updateInbox } from "./inbox-update.ts";
import { relabelMessage } from "./message-labels.ts";
import { deleteMessageCopies, deleteThread } from "./message-removal.ts";
import type { MessageSearch } from "./message-search.ts";
import { findNewestMessage } from "./message-search.ts";
import type { PageRequest, Positioned } from "./paging.ts";
import { newestFirst } from "./paging.ts";
import { recipientDeliveriesOf } from "./recipient-deliveries.ts";
import { relabelThread } from "./thread-labels.ts";
import {
  type SummarizedThread,
  summarizeThreads,
  summaryOfMessages,
  type ThreadSummary,
  withSummaries,
} from "./thread-summaries.ts";

export interface NewInbox {
  inboxId: string;
  podId: string;
  displayName: string | null;
  clientId: string | null;
  createdAt: string;
}

export type CreateInboxResult = { created: InboxRow } | { existing: InboxRow } | { addressTaken: true };

/** An attachment's metadata, as messages list it. */
export interface AttachmentRow {
  attachment_id: string;
  filename: string;
  content_type: string;
  size: number;
}

/** An attachment with its bytes. */
export interface AttachmentContent {
  filename: string;
  content_type: string;
  content: Uint8Array;
}

export interface MessageWithAttachments {
  message: MessageRow;
  attachments: AttachmentRow[];
  /** Where each recipient stands: rows of the sender's copy, none on a received copy. */
  deliveries: RecipientDelivery[];
}

/** Inboxes of a pod, and reading their messages and threads (the send writes them: see send-store.ts). */
export interface InboxStore {
  createInbox(inbox: NewInbox): Promise<CreateInboxResult>;
  findInbox(podId: string, inboxId: string): Promise<InboxRow | null>;
  listInboxes(podId: string, page: PageRequest): Promise<Positioned<InboxRow>[]>;
  listMessages(inboxId: string, page: PageRequest): Promise<Positioned<MessageWithAttachments>[]>;
  findMessage(inboxId: string, messageId: string): Promise<MessageWithAttachments | null>;
  /** The newest message of any pod matching the search (see message-search.ts). */
  findNewestMessage(search: MessageSearch): Promise<MessageWithAttachments | null>;
  /** An attachment of the inbox's copy of a message, with its bytes. */
  findAttachment(inboxId: string, messageId: string, attachmentId: string): Promise<AttachmentContent | null>;
  /** The stored RFC 5322 source of the inbox's copy of a message (copies stored before sources were kept have none). */
  findMessageSource(inboxId: string, messageId: string): Promise<Uint8Array | null>;
  /** See relabelMessage in message-labels.ts. */
  relabelMessage(
    inboxId: string,
    messageId: string,
    relabel: (labels: string[]) => string[],
    at: string,
  ): Promise<MessageWithAttachments | null>;
  /** See deleteInbox in inbox-deletion.ts. */
  deleteInbox(podId: string, inboxId: string, at: string): Promise<boolean>;
  /** See updateInbox in inbox-update.ts. */
  updateInbox(
    podId: string,
    inboxId: string,
    change: (current: InboxRow) => InboxSettings,
    at: string,
  ): Promise<InboxRow | null>;
  listThreads(inboxId: string, page: PageRequest): Promise<Positioned<SummarizedThread>[]>;
  /** A thread of the inbox with all its messages, oldest first. */
  findThread(
    inboxId: string,
    threadId: string,
  ): Promise<{ thread: ThreadRow; summary: ThreadSummary; messages: MessageWithAttachments[] } | null>;
  /** The threads with what their messages say (see thread-summaries.ts), in the order given. */
  summarizeThreads(threads: readonly ThreadRow[]): Promise<SummarizedThread[]>;
  /** The inbox's copies of these messages that it holds, in the order asked (each once). */
  findMessages(inboxId: string, messageIds: readonly string[]): Promise<MessageWithAttachments[]>;
  /** Relabels the inbox's copies of these messages in one transaction (see relabelMessage); those found, in order. */
  relabelMessages(
    inboxId: string,
    messageIds: readonly string[],
    relabel: (labels: string[]) => string[],
    at: string,
  ): Promise<MessageRow[]>;
  /** See deleteMessageCopies in message-removal.ts; false when the inbox has no such message. */
  deleteMessage(inboxId: string, messageId: string, at: string): Promise<boolean>;
  /** See relabelThread in thread-labels.ts. */
  relabelThread(
    inboxId: string,
    threadId: string,
    relabel: (labels: string[]) => string[],
    at: string,
  ): Promise<SummarizedThread | null>;
  /** See deleteThread in message-removal.ts. */
  deleteThread(inboxId: string, threadId: string, at: string): Promise<boolean>;
  /** The threads of every inbox of a pod, newest first. */
  listPodThreads(podId: string, page: PageRequest): Promise<Positioned<SummarizedThread>[]>;
  /** The inbox of the pod that holds a thread; null when none of the pod's does. */
  findInboxOfThread(podId: string, threadId: string): Promise<string | null>;
  /** An attachment of any message of a thread of the inbox, with its bytes and the message it belongs to. */
  findThreadAttachment(
    inboxId: string,
    threadId: string,
    attachmentId: string,
  ): Promise<(AttachmentContent & { message_id: string }) | null>;
}

/** The inbox's frequent queries, prepared once per dialect (see prepared-query.ts). */
const inboxQueries = perDialect((dialect) => ({
  inboxOfPod: new PreparedQuery((db, p: { podId: string; inboxId: string }) =>
    db.selectFrom("inboxes").selectAll().where("pod_id", "=", p.podId).where("inbox_id", "=", p.inboxId),
  ),
  inboxPage: newestFirst(dialect, (db, podId) => db.selectFrom("inboxes").selectAll().where("pod_id", "=", podId)),
  messagePage: newestFirst(
    dialect,
    (db, inboxId) => db.selectFrom("messages").selectAll().where("inbox_id", "=", inboxId),
    { labelsColumn: "labels" },
  ),
  threadPage: newestFirst(
    dialect,
    (db, inboxId) => db.selectFrom("threads").selectAll().where("inbox_id", "=", inboxId),
    { labelsColumn: "labels" },
  ),
  podThreadPage: newestFirst(
    dialect,
    (db, podId) =>
      db
        .selectFrom("threads")
        .selectAll()
        .where("inbox_id", "in", db.selectFrom("inboxes").select("inbox_id").where("pod_id", "=", podId)),
    { labelsColumn: "labels" },
  ),
  attachmentOfInbox: new PreparedQuery((db, p: { inboxId: string; messageId: string; attachmentId: string }) =>
    db
      .selectFrom("attachments")
      .select(["filename", "content_type", "content"])
      .where("inbox_id", "=", p.inboxId)
      .where("message_id", "=", p.messageId)
      .where("attachment_id", "=", p.attachmentId),
  ),
  sourceOf: new PreparedQuery((db, p: { inboxId: string; messageId: string }) =>
    db
      .selectFrom("message_sources")
      .select("source")
      .where("inbox_id", "=", p.inboxId)
      .where("message_id", "=", p.messageId),
  ),
  messageOfInbox: new PreparedQuery((db, p: { inboxId: string; messageId: string }) =>
    db.selectFrom("messages").selectAll().where("inbox_id", "=", p.inboxId).where("message_id", "=", p.messageId),
  ),
  attachmentsOf: new PreparedQuery((db, p: { inboxId: string; messageIds: unknown }) =>
    db
      .selectFrom("attachments")
      .select(["message_id", "attachment_id", "filename", "content_type", "size"])
      .where("inbox_id", "=", p.inboxId)
      .where(dialect.inList("message_id", p.messageIds))
      .orderBy("message_id")
      .orderBy("position"),
  ),
}));

export class SqlInboxStore implements InboxStore {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;
  readonly #q: ReturnType<typeof inboxQueries>;

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
    this.#q = inboxQueries(dialect);
  }

  /**
   * Creates an inbox unless the pod already has one with this `client_id`, or the address is taken. The insert skips a
   * row that breaks either unique rule, so two requests racing on two instances create one inbox between them.
   */
  async createInbox(inbox: NewInbox): Promise<CreateInboxResult> {
    const created = await this.#db
      .insertInto("inboxes")
      .values({
        inbox_id: inbox.inboxId,
        pod_id: inbox.podId,
        display_name: inbox.displayName,
        client_id: inbox.clientId,
        created_at: inbox.createdAt,
        updated_at: inbox.createdAt,
      })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
    if (created) {
      return { created };
    }
    if (inbox.clientId !== null) {
      const existing = await this.#db
        .selectFrom("inboxes")
        .selectAll()
        .where("pod_id", "=", inbox.podId)
        .where("client_id", "=", inbox.clientId)
        .executeTakeFirst();
      if (existing) {
        return { existing };
      }
    }
    return { addressTaken: true };
  }

  async findInbox(podId: string, inboxId: string) {
    return (await this.#q.inboxOfPod.first(this.#db, { podId, inboxId })) ?? null;
  }

  listInboxes(podId: string, page: PageRequest) {
    return this.#q.inboxPage(this.#db, podId, page);
  }

  async listMessages(inboxId: string, page: PageRequest) {
    const rows = await this.#q.messagePage(this.#db, inboxId, page);
    const ids = rows.map(({ row }) => row.message_id);
    const attachments = await this.#attachmentsOf(inboxId, ids);
    const deliveries = await recipientDeliveriesOf(this.#db, this.#dialect, inboxId, ids);
    return rows.map(({ row, position }) => ({
      row: {
        message: row,
        attachments: attachments.get(row.message_id) ?? [],
        deliveries: deliveries.get(row.message_id) ?? [],
      },
      position,
    }));
  }

  async findMessage(inboxId: string, messageId: string) {
    const message = await this.#q.messageOfInbox.first(this.#db, { inboxId, messageId });
    if (!message) {
      return null;
    }
    return this.#withDetails(inboxId, message);
  }

  async findNewestMessage(search: MessageSearch) {
    const message = await findNewestMessage(this.#db, this.#dialect, search);
    return message ? this.#withDetails(message.inbox_id, message) : null;
  }

  async listThreads(inboxId: string, page: PageRequest) {
    return this.#summarizedPage(await this.#q.threadPage(this.#db, inboxId, page));
  }

  summarizeThreads(threads: readonly ThreadRow[]) {
    return summarizeThreads(this.#db, this.#dialect, threads);
  }

  async findAttachment(inboxId: string, messageId: string, attachmentId: string) {
    return (await this.#q.attachmentOfInbox.first(this.#db, { inboxId, messageId, attachmentId })) ?? null;
  }

  async findMessageSource(inboxId: string, messageId: string) {
    return (await this.#q.sourceOf.first(this.#db, { inboxId, messageId }))?.source ?? null;
  }

  async relabelMessage(inboxId: string, messageId: string, relabel: (labels: string[]) => string[], at: string) {
    const message = await retryingTransaction(this.#db, this.#dialect, (trx) =>
      relabelMessage(trx, this.#dialect, inboxId, messageId, relabel, at),
    );
    if (!message) {
      return null;
    }
    return this.#withDetails(inboxId, message);
  }

  deleteInbox(podId: string, inboxId: string, at: string) {
    return retryingTransaction(this.#db, this.#dialect, (trx) => deleteInbox(trx, this.#dialect, podId, inboxId, at));
  }

  updateInbox(podId: string, inboxId: string, change: (current: InboxRow) => InboxSettings, at: string) {
    return retryingTransaction(this.#db, this.#dialect, (trx) =>
      updateInbox(trx, this.#dialect, podId, inboxId, change, at),
    );
  }

  async findThread(inboxId: string, threadId: string) {
    const thread = await this.#db
      .selectFrom("threads")
      .selectAll()
      .where("inbox_id", "=", inboxId)
      .where("thread_id", "=", threadId)
      .executeTakeFirst();
    if (!thread) {
      return null;
    }
    const rows = await this.#db
      .selectFrom("messages")
      .selectAll()
      .where("inbox_id", "=", inboxId)
      .where("thread_id", "=", threadId)
      .orderBy("created_at", "asc")
      .orderBy("seq", "asc")
      .execute();
    const ids = rows.map((row) => row.message_id);
    const attachments = await this.#attachmentsOf(inboxId, ids);
    const deliveries = await recipientDeliveriesOf(this.#db, this.#dialect, inboxId, ids);
    return {
      thread,
      summary: summaryOfMessages(rows),
      messages: rows.map((message) => ({
        message,
        attachments: attachments.get(message.message_id) ?? [],
        deliveries: deliveries.get(message.message_id) ?? [],
      })),
    };
  }

  async findMessages(inboxId: string, messageIds: readonly string[]) {
    const wanted = [...new Set(messageIds)];
    if (wanted.length === 0) {
      return [];
    }
    const rows = await this.#db
      .selectFrom("messages")
      .selectAll()
      .where("inbox_id", "=", inboxId)
      .where(this.#dialect.inList("message_id", this.#dialect.listParam(wanted)))
      .execute();
    const byId = new Map(rows.map((row) => [row.message_id, row]));
    const found = wanted.flatMap((id) => byId.get(id) ?? []);
    const ids = found.map((row) => row.message_id);
    const attachments = await this.#attachmentsOf(inboxId, ids);
    const deliveries = await recipientDeliveriesOf(this.#db, this.#dialect, inboxId, ids);
    return found.map((message) => ({
      message,
      attachments: attachments.get(message.message_id) ?? [],
      deliveries: deliveries.get(message.message_id) ?? [],
    }));
  }

  relabelMessages(inboxId: string, messageIds: readonly string[], relabel: (labels: string[]) => string[], at: string) {
    return retryingTransaction(this.#db, this.#dialect, async (trx) => {
      const updated: MessageRow[] = [];
      for (const messageId of new Set(messageIds)) {
        const message = await relabelMessage(trx, this.#dialect, inboxId, messageId, relabel, at);
        if (message) {
          updated.push(message);
        }
      }
      return updated;
    });
  }

  async deleteMessage(inboxId: string, messageId: string, at: string) {
    const deleted = await retryingTransaction(this.#db, this.#dialect, (trx) =>
      deleteMessageCopies(trx, this.#dialect, inboxId, [messageId], at),
    );
    return deleted.length > 0;
  }

  async relabelThread(inboxId: string, threadId: string, relabel: (labels: string[]) => string[], at: string) {
    const thread = await retryingTransaction(this.#db, this.#dialect, (trx) =>
      relabelThread(trx, this.#dialect, inboxId, threadId, relabel, at),
    );
    return thread ? ((await this.summarizeThreads([thread]))[0] ?? null) : null;
  }

  deleteThread(inboxId: string, threadId: string, at: string) {
    return retryingTransaction(this.#db, this.#dialect, (trx) =>
      deleteThread(trx, this.#dialect, inboxId, threadId, at),
    );
  }

  async listPodThreads(podId: string, page: PageRequest) {
    return this.#summarizedPage(await this.#q.podThreadPage(this.#db, podId, page));
  }

  /** A page of threads with their summaries, in two more statements for the whole page. */
  #summarizedPage(rows: readonly Positioned<ThreadRow>[]): Promise<Positioned<SummarizedThread>[]> {
    return withSummaries(rows, (threads) => this.summarizeThreads(threads));
  }

  async findInboxOfThread(podId: string, threadId: string) {
    const row = await this.#db
      .selectFrom("threads")
      .innerJoin("inboxes", "inboxes.inbox_id", "threads.inbox_id")
      .select("threads.inbox_id")
      .where("inboxes.pod_id", "=", podId)
      .where("threads.thread_id", "=", threadId)
      .executeTakeFirst();
    return row?.inbox_id ?? null;
  }

  async findThreadAttachment(inboxId: string, threadId: string, attachmentId: string) {
    const row = await this.#db
      .selectFrom("attachments")
      .innerJoin("messages", (join) =>
        join
          .onRef("messages.inbox_id", "=", "attachments.inbox_id")
          .onRef("messages.message_id", "=", "attachments.message_id"),
      )
      .select(["attachments.message_id", "attachments.filename", "attachments.content_type", "attachments.content"])
      .where("attachments.inbox_id", "=", inboxId)
      .where("messages.thread_id", "=", threadId)
      .where("attachments.attachment_id", "=", attachmentId)
      .executeTakeFirst();
    return row ?? null;
  }

  async #withDetails(inboxId: string, message: MessageRow): Promise<MessageWithAttachments> {
    const attachments = await this.#attachmentsOf(inboxId, [message.message_id]);
    const deliveries = await recipientDeliveriesOf(this.#db, this.#dialect, inboxId, [message.message_id]);
    return {
      message,
      attachments: attachments.get(message.message_id) ?? [],
      deliveries: deliveries.get(message.message_id) ?? [],
    };
  }

  /** The attachment metadata of the inbox's copies of these messages, by message id, in the order they were sent. */
  async #attachmentsOf(inboxId: string, messageIds: readonly string[]): Promise<Map<string, AttachmentRow[]>> {
    const byMessage = new Map<string, AttachmentRow[]>();
    if (messageIds.length === 0) {
      return byMessage;
    }
    const rows = await this.#q.attachmentsOf.rows(this.#db, {
      inboxId,
      messageIds: this.#dialect.listParam(messageIds),
    });
    for (const { message_id, ...attachment } of rows) {
      byMessage.set(message_id, [...(byMessage.get(message_id) ?? []), attachment]);
    }
    return byMessage;
  }
}
