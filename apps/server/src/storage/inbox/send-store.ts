import type { Insertable, Transaction } from "kysely";
import { insertRows } from "../insert-rows.ts";
import { PreparedInsert, PreparedQuery } from "../prepared-query.ts";
import type { AttachmentTable, DatabaseSchema, InboxRow, MessageTable, ThreadRow } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import { perDialect } from "../sql-dialect.ts";
import type { UnitOfWork, UnitsOfWork } from "../unit-of-work.ts";
import type { NewDelivery } from "./delivery-outbox.ts";
import { enqueueDeliveries } from "./delivery-outbox.ts";
import type { NewEvent } from "./event-log.ts";
import { appendEvents } from "./event-log.ts";
import type { MailAttemptState } from "./mail-queue.ts";
import { recordMailAttempt } from "./mail-queue.ts";
import type { NewRecipientDelivery } from "./recipient-deliveries.ts";
import { insertRecipientDeliveries } from "./recipient-deliveries.ts";
import { type SummarizedThread, summarizeThreads } from "./thread-summaries.ts";

export type NewMessageRow = Omit<Insertable<MessageTable>, "seq">;
export type NewAttachmentRow = Insertable<AttachmentTable>;
/** A thread as the send writes it: every column but the row number. */
export type ThreadColumns = Omit<ThreadRow, "seq">;

export interface NewMessageSource {
  inboxId: string;
  messageId: string;
  source: Uint8Array;
}

export interface IdempotencyRecord {
  requestHash: string;
  messageId: string;
  threadId: string;
}

/** The outcome of claiming an Idempotency-Key: this send owns it, or an earlier send (in its window) already did. */
export type IdempotencyClaim = { claimed: true } | { earlier: IdempotencyRecord };

/** An enabled webhook of a pod and what it subscribes to (null: every event type, or every inbox). */
export interface WebhookSubscription {
  webhookId: string;
  eventTypes: string[] | null;
  inboxIds: string[] | null;
}

/** Storage operations that take part in a send, all inside one transaction. */
export interface SendTransaction {
  /** The pod's inbox with this address, or null when the pod has none (any more). */
  findInbox(podId: string, inboxId: string): Promise<InboxRow | null>;
  /** The inboxes hosted here among these addresses (lowercase). */
  findInboxesByAddress(addresses: readonly string[]): Promise<{ inboxId: string; podId: string }[]>;
  /**
   * Claims the key for this send, recording the ids it answers with from now on (they are stored by the same
   * transaction). A record older than `notBeforeMs` has expired and is taken over. A send on another instance holding
   * the same key waits here until that send commits (and then sees its record) or rolls back.
   */
  claimIdempotencyKey(
    podId: string,
    key: string,
    record: IdempotencyRecord,
    atMs: number,
    notBeforeMs: number,
  ): Promise<IdempotencyClaim>;
  /** The record of the key made at `notBeforeMs` or later (one older has expired), or null: claims nothing. */
  findIdempotencyRecord(podId: string, key: string, notBeforeMs: number): Promise<IdempotencyRecord | null>;
  /** Counts one send on the pod's day and answers the day's count, this send included. */
  countSend(podId: string, day: string): Promise<number>;
  /** The thread, in this inbox, of the first of these message ids found there, locked until the send commits. */
  findThreadOfMessages(inboxId: string, messageIds: readonly string[]): Promise<ThreadRow | null>;
  /** The threads with what their messages say so far (see thread-summaries.ts). */
  summarizeThreads(threads: readonly ThreadRow[]): Promise<SummarizedThread[]>;
  insertThreads(threads: readonly ThreadColumns[]): Promise<void>;
  updateThread(thread: ThreadColumns): Promise<void>;
  insertMessages(messages: readonly NewMessageRow[]): Promise<void>;
  /** Whether the inbox already holds a copy of this message id. */
  holdsMessage(inboxId: string, messageId: string): Promise<boolean>;
  /** Stores attachments of copies, each row under the inbox holding its copy. */
  insertAttachments(attachments: readonly NewAttachmentRow[]): Promise<void>;
  /** Keeps the RFC 5322 sources of copies of a new message id, each under the inbox holding the copy. */
  insertMessageSources(sources: readonly NewMessageSource[]): Promise<void>;
  /**
   * Keeps the RFC 5322 source of the copy of a message id in one inbox. False when that inbox already has one (the
   * same mail received again, or a concurrent arrival of it that committed first): the first is kept.
   */
  insertMessageSource(inboxId: string, messageId: string, source: Uint8Array): Promise<boolean>;
  /** The pod's enabled webhooks, oldest first. */
  findEnabledWebhooks(podId: string): Promise<WebhookSubscription[]>;
  enqueueDeliveries(deliveries: readonly NewDelivery[], at: string, nowMs: number): Promise<void>;
  /** Adds the send's events to the event log (see event-log.ts). */
  appendEvents(events: readonly NewEvent[], nowMs: number): Promise<void>;
  /** Writes where each recipient of a sent message stands (see recipient-deliveries.ts). */
  insertRecipientDeliveries(deliveries: readonly NewRecipientDelivery[]): Promise<void>;
  /** Records a relay attempt for a recipient `claimant` holds (see mail-queue.ts); false when it no longer does. */
  recordMailAttempt(seq: number, claimant: string, state: MailAttemptState): Promise<boolean>;
}

/**
 * Runs sends: each in one transaction, all of it stored or none, as a unit of work: once it commits, what it stored
 * for others (events, webhook deliveries, mail for the relay) is announced (see unit-of-work.ts).
 */
export interface SendStore {
  inSendTransaction<T>(work: (tx: SendTransaction) => Promise<T>): Promise<T>;
}

const parseNullableList = (json: string | null): string[] | null =>
  json === null ? null : (JSON.parse(json) as string[]);

export class SqlSendStore implements SendStore {
  readonly #dialect: SqlDialect;
  readonly #units: UnitsOfWork;

  constructor(dialect: SqlDialect, units: UnitsOfWork) {
    this.#dialect = dialect;
    this.#units = units;
  }

  inSendTransaction<T>(work: (tx: SendTransaction) => Promise<T>): Promise<T> {
    // Two sends that lock the same threads in opposite orders deadlock on PostgreSQL; the database aborts one, which
    // is then run again from the start.
    return this.#units.run((trx, unit) => work(new SqlSendTransaction(trx, this.#dialect, unit)));
  }
}

const insertThreads = insertRows("threads", (p: ThreadColumns) => ({
  thread_id: p.thread_id,
  inbox_id: p.inbox_id,
  subject: p.subject,
  participants: p.participants,
  labels: p.labels,
  message_count: p.message_count,
  last_message_at: p.last_message_at,
  created_at: p.created_at,
  updated_at: p.updated_at,
}));

const insertMessages = insertRows("messages", (p: NewMessageRow) => ({
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
}));

const insertAttachments = insertRows("attachments", (p: NewAttachmentRow) => ({
  inbox_id: p.inbox_id,
  message_id: p.message_id,
  attachment_id: p.attachment_id,
  position: p.position,
  filename: p.filename,
  content_type: p.content_type,
  size: p.size,
  content: p.content,
}));

const insertSources = new PreparedInsert((db, rows: readonly NewMessageSource[]) =>
  db
    .insertInto("message_sources")
    .values(rows.map((p) => ({ inbox_id: p.inboxId, message_id: p.messageId, source: p.source })))
    .onConflict((oc) => oc.columns(["inbox_id", "message_id"]).doNothing()),
);

/** The send's queries, prepared once per dialect (see prepared-query.ts). */
const sendQueries = perDialect((dialect) => ({
  inboxOfPod: new PreparedQuery((db, p: { podId: string; inboxId: string }) =>
    db.selectFrom("inboxes").selectAll().where("pod_id", "=", p.podId).where("inbox_id", "=", p.inboxId),
  ),
  inboxesAmong: new PreparedQuery((db, p: { addresses: unknown }) =>
    db.selectFrom("inboxes").select(["inbox_id", "pod_id"]).where(dialect.inList("inbox_id", p.addresses)),
  ),
  claimKey: new PreparedQuery(
    (db, p: IdempotencyRecord & { podId: string; key: string; atMs: number; notBeforeMs: number }) =>
      db
        .insertInto("idempotency_keys")
        .values({
          pod_id: p.podId,
          idempotency_key: p.key,
          request_hash: p.requestHash,
          message_id: p.messageId,
          thread_id: p.threadId,
          created_at_ms: p.atMs,
        })
        .onConflict((oc) =>
          oc
            .columns(["pod_id", "idempotency_key"])
            .doUpdateSet({
              request_hash: p.requestHash,
              message_id: p.messageId,
              thread_id: p.threadId,
              created_at_ms: p.atMs,
            })
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
  liveKeyRecord: new PreparedQuery((db, p: { podId: string; key: string; notBeforeMs: number }) =>
    db
      .selectFrom("idempotency_keys")
      .select(["request_hash", "message_id", "thread_id"])
      .where("pod_id", "=", p.podId)
      .where("idempotency_key", "=", p.key)
      .where("created_at_ms", ">=", p.notBeforeMs),
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
  messageOfInbox: new PreparedQuery((db, p: { inboxId: string; messageId: string }) =>
    db.selectFrom("messages").select("seq").where("inbox_id", "=", p.inboxId).where("message_id", "=", p.messageId),
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
  readonly #unit: UnitOfWork;

  constructor(trx: Transaction<DatabaseSchema>, dialect: SqlDialect, unit: UnitOfWork) {
    this.#trx = trx;
    this.#dialect = dialect;
    this.#q = sendQueries(dialect);
    this.#unit = unit;
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
    record: IdempotencyRecord,
    atMs: number,
    notBeforeMs: number,
  ): Promise<IdempotencyClaim> {
    if (await this.#q.claimKey.first(this.#trx, { ...record, podId, key, atMs, notBeforeMs })) {
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

  async findIdempotencyRecord(podId: string, key: string, notBeforeMs: number) {
    const row = await this.#q.liveKeyRecord.first(this.#trx, { podId, key, notBeforeMs });
    return row ? { requestHash: row.request_hash, messageId: row.message_id, threadId: row.thread_id } : null;
  }

  async countSend(podId: string, day: string) {
    const row = await this.#q.countSend.first(this.#trx, { podId, day });
    if (!row) {
      throw new Error(`The send count of pod ${podId} was not stored.`);
    }
    return row.count;
  }

  summarizeThreads(threads: readonly ThreadRow[]) {
    return summarizeThreads(this.#trx, this.#dialect, threads);
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

  insertThreads(threads: readonly ThreadColumns[]) {
    return insertThreads(this.#trx, threads);
  }

  async updateThread(thread: ThreadColumns) {
    await this.#q.updateThread.execute(this.#trx, thread);
  }

  insertMessages(messages: readonly NewMessageRow[]) {
    return insertMessages(this.#trx, messages);
  }

  async holdsMessage(inboxId: string, messageId: string) {
    return (await this.#q.messageOfInbox.first(this.#trx, { inboxId, messageId })) !== undefined;
  }

  insertAttachments(attachments: readonly NewAttachmentRow[]) {
    return insertAttachments(this.#trx, attachments);
  }

  insertMessageSources(sources: readonly NewMessageSource[]) {
    return insertSources.execute(this.#trx, sources);
  }

  async insertMessageSource(inboxId: string, messageId: string, source: Uint8Array) {
    return (await this.#q.insertSource.first(this.#trx, { inboxId, messageId, source })) !== undefined;
  }

  async findEnabledWebhooks(podId: string) {
    const rows = await this.#q.enabledWebhooks.rows(this.#trx, { podId });
    return rows.map((row) => ({
      webhookId: row.webhook_id,
      eventTypes: parseNullableList(row.event_types),
      inboxIds: parseNullableList(row.inbox_ids),
    }));
  }

  async enqueueDeliveries(deliveries: readonly NewDelivery[], at: string, nowMs: number) {
    await enqueueDeliveries(this.#trx, deliveries, at, nowMs);
    this.#unit.deliveriesEnqueued(deliveries.length);
  }

  async appendEvents(events: readonly NewEvent[], nowMs: number) {
    await appendEvents(this.#trx, this.#dialect, events, nowMs);
    for (const event of events) {
      this.#unit.eventsStored(event.podId);
    }
  }

  async insertRecipientDeliveries(deliveries: readonly NewRecipientDelivery[]) {
    await insertRecipientDeliveries(this.#trx, deliveries);
    this.#unit.mailQueued(deliveries.filter((delivery) => delivery.status === "queued").length);
  }

  recordMailAttempt(seq: number, claimant: string, state: MailAttemptState) {
    return recordMailAttempt(this.#trx, seq, claimant, state);
  }
}
