import type { Insertable, Transaction } from "kysely";
import type { ServerDatabase } from "../database.ts";
import { PreparedQuery } from "../prepared-query.ts";
import type { AttachmentTable, DatabaseSchema, InboxRow, MessageTable, ThreadRow } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import { perDialect } from "../sql-dialect.ts";
import type { NewDelivery } from "./delivery-outbox.ts";
import { enqueueDeliveries } from "./delivery-outbox.ts";
import type { NewEvent } from "./event-log.ts";
import { appendEvents } from "./event-log.ts";
import type { MailAttemptState } from "./mail-queue.ts";
import { recordMailAttempt } from "./mail-queue.ts";
import type { NewRecipientDelivery } from "./recipient-deliveries.ts";
import { insertRecipientDeliveries } from "./recipient-deliveries.ts";

export type NewMessageRow = Omit<Insertable<MessageTable>, "seq">;
export type NewAttachmentRow = Insertable<AttachmentTable>;
/** A thread as the send writes it: every column but the row number. */
export type ThreadColumns = Omit<ThreadRow, "seq">;

export interface IdempotencyRecord {
  requestHash: string;
  messageId: string;
  threadId: string;
}

/** The outcome of claiming an Idempotency-Key: this send owns it, or an earlier send (in its window) already did. */
export type IdempotencyClaim = { claimed: true } | { earlier: IdempotencyRecord };

/** Storage operations that take part in a send, all inside one transaction. */
export interface SendTransaction {
  findInbox(podId: string, inboxId: string): Promise<InboxRow | null>;
  /** The inboxes hosted here among these addresses (lowercase). */
  findInboxesByAddress(addresses: readonly string[]): Promise<{ inboxId: string; podId: string }[]>;
  /**
   * Claims the key for this send. A record older than `notBeforeMs` has expired and is taken over. A send on another
   * instance holding the same key waits here until that send commits (and then sees its record) or rolls back.
   */
  claimIdempotencyKey(
    podId: string,
    key: string,
    requestHash: string,
    atMs: number,
    notBeforeMs: number,
  ): Promise<IdempotencyClaim>;
  /** Writes the ids the claimed key answers with from now on. */
  completeIdempotencyKey(podId: string, key: string, messageId: string, threadId: string): Promise<void>;
  /** Counts one send on the pod's day and answers the day's count, this send included. */
  countSend(podId: string, day: string): Promise<number>;
  /** The thread, in this inbox, of the first of these message ids found there, locked until the send commits. */
  findThreadOfMessages(inboxId: string, messageIds: readonly string[]): Promise<ThreadRow | null>;
  insertThread(thread: ThreadColumns): Promise<void>;
  updateThread(thread: ThreadColumns): Promise<void>;
  insertMessage(message: NewMessageRow): Promise<void>;
  /** Whether the inbox already holds a copy of this message id. */
  holdsMessage(inboxId: string, messageId: string): Promise<boolean>;
  /** Stores attachments of one copy, each row under the inbox holding the copy. */
  insertAttachments(attachments: readonly NewAttachmentRow[]): Promise<void>;
  /**
   * Keeps the RFC 5322 source of the copy of a message id in one inbox. False when that inbox already has one (the
   * same mail received again, or a concurrent arrival of it that committed first): the first is kept.
   */
  insertMessageSource(inboxId: string, messageId: string, source: Uint8Array): Promise<boolean>;
  /** Enabled webhooks of the pod subscribed to this event type for this inbox, oldest first. */
  findSubscribedWebhooks(podId: string, eventType: string, inboxId: string): Promise<string[]>;
  enqueueDeliveries(deliveries: readonly NewDelivery[], at: string, nowMs: number): Promise<void>;
  /** Adds the send's events to the event log (see event-log.ts). */
  appendEvents(events: readonly NewEvent[], nowMs: number): Promise<void>;
  /** Writes where each recipient of a sent message stands (see recipient-deliveries.ts). */
  insertRecipientDeliveries(deliveries: readonly NewRecipientDelivery[]): Promise<void>;
  /** Records a relay attempt for a recipient `claimant` holds (see mail-queue.ts); false when it no longer does. */
  recordMailAttempt(seq: number, claimant: string, state: MailAttemptState): Promise<boolean>;
}

/** Runs sends: each in one transaction, all of it stored or none. */
export interface SendStore {
  inSendTransaction<T>(work: (tx: SendTransaction) => Promise<T>): Promise<T>;
}

const MAX_ATTEMPTS = 3;

const parseNullableList = (json: string | null): string[] | null =>
  json === null ? null : (JSON.parse(json) as string[]);

export class SqlSendStore implements SendStore {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  async inSendTransaction<T>(work: (tx: SendTransaction) => Promise<T>): Promise<T> {
    // Two sends that lock the same threads in opposite orders deadlock on PostgreSQL; the database aborts one, which
    // is then run again from the start.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#db.transaction().execute((trx) => work(new SqlSendTransaction(trx, this.#dialect)));
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !this.#dialect.isTransientConflict(error)) {
          throw error;
        }
      }
    }
  }
}

/** The send's queries, prepared once per dialect (see prepared-query.ts). */
const sendQueries = perDialect((dialect) => ({
  inboxOfPod: new PreparedQuery((db, p: { podId: string; inboxId: string }) =>
    db.selectFrom("inboxes").selectAll().where("pod_id", "=", p.podId).where("inbox_id", "=", p.inboxId),
  ),
  inboxesAmong: new PreparedQuery((db, p: { addresses: unknown }) =>
    db.selectFrom("inboxes").select(["inbox_id", "pod_id"]).where(dialect.inList("inbox_id", p.addresses)),
  ),
  claimKey: new PreparedQuery(
    (db, p: { podId: string; key: string; requestHash: string; atMs: number; notBeforeMs: number }) =>
      db
        .insertInto("idempotency_keys")
        .values({
          pod_id: p.podId,
          idempotency_key: p.key,
          request_hash: p.requestHash,
          message_id: "",
          thread_id: "",
          created_at_ms: p.atMs,
        })
        .onConflict((oc) =>
          oc
            .columns(["pod_id", "idempotency_key"])
            .doUpdateSet({ request_hash: p.requestHash, message_id: "", thread_id: "", created_at_ms: p.atMs })
            .where("idempotency_keys.created_at_ms", "<", p.notBeforeMs),
        )
        .returning("pod_id"),
  ),
  keyRecord: new PreparedQuery((db, p: { podId: string; key: string }) =>
    db
      .selectFrom("idempotency_keys")
      .select(["request_hash", "message_id", "thread_id"])
      .where("pod_id", "=", p.podId)
      .where("idempotency_key", "=", p.key),
  ),
  completeKey: new PreparedQuery((db, p: { podId: string; key: string; messageId: string; threadId: string }) =>
    db
      .updateTable("idempotency_keys")
      .set({ message_id: p.messageId, thread_id: p.threadId })
      .where("pod_id", "=", p.podId)
      .where("idempotency_key", "=", p.key),
  ),
  countSend: new PreparedQuery((db, p: { podId: string; day: string }) =>
    db
      .insertInto("send_counts")
      .values({ pod_id: p.podId, day: p.day, count: 1 })
      .onConflict((oc) =>
        oc.columns(["pod_id", "day"]).doUpdateSet((eb) => ({ count: eb("send_counts.count", "+", 1) })),
      )
      .returning("count"),
  ),
  threadsOfMessages: new PreparedQuery((db, p: { inboxId: string; messageIds: unknown }) =>
    db
      .selectFrom("messages")
      .select(["message_id", "thread_id"])
      .where("inbox_id", "=", p.inboxId)
      .where(dialect.inList("message_id", p.messageIds)),
  ),
  lockedThread: new PreparedQuery((db, p: { threadId: string }) =>
    dialect.lockRows(db.selectFrom("threads").selectAll().where("thread_id", "=", p.threadId)),
  ),
  insertThread: new PreparedQuery((db, p: ThreadColumns) =>
    db.insertInto("threads").values({
      thread_id: p.thread_id,
      inbox_id: p.inbox_id,
      subject: p.subject,
      participants: p.participants,
      labels: p.labels,
      message_count: p.message_count,
      last_message_at: p.last_message_at,
      created_at: p.created_at,
      updated_at: p.updated_at,
    }),
  ),
  updateThread: new PreparedQuery((db, p: ThreadColumns) =>
    db
      .updateTable("threads")
      .set({
        subject: p.subject,
        participants: p.participants,
        labels: p.labels,
        message_count: p.message_count,
        last_message_at: p.last_message_at,
        updated_at: p.updated_at,
      })
      .where("thread_id", "=", p.thread_id),
  ),
  insertMessage: new PreparedQuery((db, p: NewMessageRow) =>
    db.insertInto("messages").values({
      inbox_id: p.inbox_id,
      message_id: p.message_id,
      thread_id: p.thread_id,
      labels: p.labels,
      sender: p.sender,
      to_addresses: p.to_addresses,
      cc_addresses: p.cc_addresses,
      bcc_addresses: p.bcc_addresses,
      reply_to_addresses: p.reply_to_addresses,
      subject: p.subject,
      preview: p.preview,
      text_body: p.text_body,
      html_body: p.html_body,
      in_reply_to: p.in_reply_to,
      reference_ids: p.reference_ids,
      headers: p.headers,
      size: p.size,
      timestamp: p.timestamp,
      created_at: p.created_at,
      updated_at: p.updated_at,
    }),
  ),
  messageOfInbox: new PreparedQuery((db, p: { inboxId: string; messageId: string }) =>
    db.selectFrom("messages").select("seq").where("inbox_id", "=", p.inboxId).where("message_id", "=", p.messageId),
  ),
  insertAttachment: new PreparedQuery((db, p: NewAttachmentRow) =>
    db.insertInto("attachments").values({
      inbox_id: p.inbox_id,
      message_id: p.message_id,
      attachment_id: p.attachment_id,
      position: p.position,
      filename: p.filename,
      content_type: p.content_type,
      size: p.size,
      content: p.content,
    }),
  ),
  insertSource: new PreparedQuery((db, p: { inboxId: string; messageId: string; source: Uint8Array }) =>
    db
      .insertInto("message_sources")
      .values({ inbox_id: p.inboxId, message_id: p.messageId, source: p.source })
      .onConflict((oc) => oc.columns(["inbox_id", "message_id"]).doNothing())
      .returning("message_id"),
  ),
  enabledWebhooks: new PreparedQuery((db, p: { podId: string }) =>
    db
      .selectFrom("webhooks")
      .select(["webhook_id", "event_types", "inbox_ids"])
      .where("pod_id", "=", p.podId)
      .where("enabled", "=", 1)
      .orderBy("seq"),
  ),
}));

class SqlSendTransaction implements SendTransaction {
  readonly #trx: Transaction<DatabaseSchema>;
  readonly #dialect: SqlDialect;
  readonly #q: ReturnType<typeof sendQueries>;

  constructor(trx: Transaction<DatabaseSchema>, dialect: SqlDialect) {
    this.#trx = trx;
    this.#dialect = dialect;
    this.#q = sendQueries(dialect);
  }

  async findInbox(podId: string, inboxId: string) {
    return (await this.#q.inboxOfPod.first(this.#trx, { podId, inboxId })) ?? null;
  }

  async findInboxesByAddress(addresses: readonly string[]) {
    if (addresses.length === 0) {
      return [];
    }
    const rows = await this.#q.inboxesAmong.rows(this.#trx, { addresses: this.#dialect.listParam(addresses) });
    return rows.map((row) => ({ inboxId: row.inbox_id, podId: row.pod_id }));
  }

  async claimIdempotencyKey(
    podId: string,
    key: string,
    requestHash: string,
    atMs: number,
    notBeforeMs: number,
  ): Promise<IdempotencyClaim> {
    if (await this.#q.claimKey.first(this.#trx, { podId, key, requestHash, atMs, notBeforeMs })) {
      return { claimed: true };
    }
    const earlier = await this.#q.keyRecord.first(this.#trx, { podId, key });
    if (!earlier) {
      throw new Error(`The Idempotency-Key record of pod ${podId} is missing.`);
    }
    return {
      earlier: { requestHash: earlier.request_hash, messageId: earlier.message_id, threadId: earlier.thread_id },
    };
  }

  async completeIdempotencyKey(podId: string, key: string, messageId: string, threadId: string) {
    await this.#q.completeKey.execute(this.#trx, { podId, key, messageId, threadId });
  }

  async countSend(podId: string, day: string) {
    const row = await this.#q.countSend.first(this.#trx, { podId, day });
    if (!row) {
      throw new Error(`The send count of pod ${podId} was not stored.`);
    }
    return row.count;
  }

  async findThreadOfMessages(inboxId: string, messageIds: readonly string[]) {
    if (messageIds.length === 0) {
      return null;
    }
    const rows = await this.#q.threadsOfMessages.rows(this.#trx, {
      inboxId,
      messageIds: this.#dialect.listParam(messageIds),
    });
    for (const id of messageIds) {
      const match = rows.find((row) => row.message_id === id);
      if (match) {
        const thread = await this.#q.lockedThread.first(this.#trx, { threadId: match.thread_id });
        if (!thread) {
          throw new Error(`The thread ${match.thread_id} of message ${id} is missing.`);
        }
        return thread;
      }
    }
    return null;
  }

  async insertThread(thread: ThreadColumns) {
    await this.#q.insertThread.execute(this.#trx, thread);
  }

  async updateThread(thread: ThreadColumns) {
    await this.#q.updateThread.execute(this.#trx, thread);
  }

  async insertMessage(message: NewMessageRow) {
    await this.#q.insertMessage.execute(this.#trx, message);
  }

  async holdsMessage(inboxId: string, messageId: string) {
    return (await this.#q.messageOfInbox.first(this.#trx, { inboxId, messageId })) !== undefined;
  }

  async insertAttachments(attachments: readonly NewAttachmentRow[]) {
    // One row per statement: a multi-row insert would be a new statement for every number of rows.
    for (const attachment of attachments) {
      await this.#q.insertAttachment.execute(this.#trx, attachment);
    }
  }

  async insertMessageSource(inboxId: string, messageId: string, source: Uint8Array) {
    return (await this.#q.insertSource.first(this.#trx, { inboxId, messageId, source })) !== undefined;
  }

  async findSubscribedWebhooks(podId: string, eventType: string, inboxId: string) {
    const rows = await this.#q.enabledWebhooks.rows(this.#trx, { podId });
    return rows
      .filter((row) => {
        const types = parseNullableList(row.event_types);
        const inboxes = parseNullableList(row.inbox_ids);
        return (types === null || types.includes(eventType)) && (inboxes === null || inboxes.includes(inboxId));
      })
      .map((row) => row.webhook_id);
  }

  enqueueDeliveries(deliveries: readonly NewDelivery[], at: string, nowMs: number) {
    return enqueueDeliveries(this.#trx, deliveries, at, nowMs);
  }

  appendEvents(events: readonly NewEvent[], nowMs: number) {
    return appendEvents(this.#trx, this.#dialect, events, nowMs);
  }

  insertRecipientDeliveries(deliveries: readonly NewRecipientDelivery[]) {
    return insertRecipientDeliveries(this.#trx, deliveries);
  }

  recordMailAttempt(seq: number, claimant: string, state: MailAttemptState) {
    return recordMailAttempt(this.#trx, seq, claimant, state);
  }
}
