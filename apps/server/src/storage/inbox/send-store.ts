import type { Insertable, Transaction } from "kysely";
import type { ServerDatabase } from "../database.ts";
import type { AttachmentTable, DatabaseSchema, InboxRow, MessageTable, ThreadRow } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import type { NewDelivery } from "./delivery-outbox.ts";
import { enqueueDeliveries } from "./delivery-outbox.ts";

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
  insertAttachments(attachments: readonly NewAttachmentRow[]): Promise<void>;
  /** Enabled webhooks of the pod subscribed to this event type for this inbox, oldest first. */
  findSubscribedWebhooks(podId: string, eventType: string, inboxId: string): Promise<string[]>;
  enqueueDeliveries(deliveries: readonly NewDelivery[], at: string, nowMs: number): Promise<void>;
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

class SqlSendTransaction implements SendTransaction {
  readonly #trx: Transaction<DatabaseSchema>;
  readonly #dialect: SqlDialect;

  constructor(trx: Transaction<DatabaseSchema>, dialect: SqlDialect) {
    this.#trx = trx;
    this.#dialect = dialect;
  }

  async findInbox(podId: string, inboxId: string) {
    const row = await this.#trx
      .selectFrom("inboxes")
      .selectAll()
      .where("pod_id", "=", podId)
      .where("inbox_id", "=", inboxId)
      .executeTakeFirst();
    return row ?? null;
  }

  async findInboxesByAddress(addresses: readonly string[]) {
    if (addresses.length === 0) {
      return [];
    }
    const rows = await this.#trx
      .selectFrom("inboxes")
      .select(["inbox_id", "pod_id"])
      .where(this.#dialect.inList("inbox_id", addresses))
      .execute();
    return rows.map((row) => ({ inboxId: row.inbox_id, podId: row.pod_id }));
  }

  async claimIdempotencyKey(
    podId: string,
    key: string,
    requestHash: string,
    atMs: number,
    notBeforeMs: number,
  ): Promise<IdempotencyClaim> {
    const fresh = { request_hash: requestHash, message_id: "", thread_id: "", created_at_ms: atMs };
    const claimed = await this.#trx
      .insertInto("idempotency_keys")
      .values({ pod_id: podId, idempotency_key: key, ...fresh })
      .onConflict((oc) =>
        oc
          .columns(["pod_id", "idempotency_key"])
          .doUpdateSet(fresh)
          .where("idempotency_keys.created_at_ms", "<", notBeforeMs),
      )
      .returning("pod_id")
      .executeTakeFirst();
    if (claimed) {
      return { claimed: true };
    }
    const earlier = await this.#trx
      .selectFrom("idempotency_keys")
      .select(["request_hash", "message_id", "thread_id"])
      .where("pod_id", "=", podId)
      .where("idempotency_key", "=", key)
      .executeTakeFirstOrThrow();
    return {
      earlier: { requestHash: earlier.request_hash, messageId: earlier.message_id, threadId: earlier.thread_id },
    };
  }

  async completeIdempotencyKey(podId: string, key: string, messageId: string, threadId: string) {
    await this.#trx
      .updateTable("idempotency_keys")
      .set({ message_id: messageId, thread_id: threadId })
      .where("pod_id", "=", podId)
      .where("idempotency_key", "=", key)
      .execute();
  }

  async countSend(podId: string, day: string) {
    const row = await this.#trx
      .insertInto("send_counts")
      .values({ pod_id: podId, day, count: 1 })
      .onConflict((oc) =>
        oc.columns(["pod_id", "day"]).doUpdateSet((eb) => ({ count: eb("send_counts.count", "+", 1) })),
      )
      .returning("count")
      .executeTakeFirstOrThrow();
    return row.count;
  }

  async findThreadOfMessages(inboxId: string, messageIds: readonly string[]) {
    if (messageIds.length === 0) {
      return null;
    }
    const rows = await this.#trx
      .selectFrom("messages")
      .select(["message_id", "thread_id"])
      .where("inbox_id", "=", inboxId)
      .where(this.#dialect.inList("message_id", messageIds))
      .execute();
    for (const id of messageIds) {
      const match = rows.find((row) => row.message_id === id);
      if (match) {
        const thread = await this.#dialect
          .lockRows(this.#trx.selectFrom("threads").selectAll().where("thread_id", "=", match.thread_id))
          .executeTakeFirst();
        if (!thread) {
          throw new Error(`The thread ${match.thread_id} of message ${id} is missing.`);
        }
        return thread;
      }
    }
    return null;
  }

  async insertThread(thread: ThreadColumns) {
    await this.#trx.insertInto("threads").values(thread).execute();
  }

  async updateThread({ thread_id, inbox_id: _inbox, created_at: _created, ...changes }: ThreadColumns) {
    await this.#trx.updateTable("threads").set(changes).where("thread_id", "=", thread_id).execute();
  }

  async insertMessage(message: NewMessageRow) {
    await this.#trx.insertInto("messages").values(message).execute();
  }

  async insertAttachments(attachments: readonly NewAttachmentRow[]) {
    // One row per statement: a multi-row insert would be a new statement for every number of rows.
    for (const attachment of attachments) {
      await this.#trx.insertInto("attachments").values(attachment).execute();
    }
  }

  async findSubscribedWebhooks(podId: string, eventType: string, inboxId: string) {
    const rows = await this.#trx
      .selectFrom("webhooks")
      .select(["webhook_id", "event_types", "inbox_ids"])
      .where("pod_id", "=", podId)
      .where("enabled", "=", 1)
      .orderBy("seq")
      .execute();
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
}
