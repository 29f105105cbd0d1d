import type { Attachment, Inbox, Message, ThreadItem } from "@pigeonhole/inbox-types";
import type { Insertable, Transaction } from "kysely";
import { inJsonList } from "../json-list.ts";
import { PreparedQuery } from "../prepared-query.ts";
import type { AttachmentTable, DatabaseSchema, MessageTable } from "../schema.ts";
import type { NewDelivery } from "./delivery-outbox.ts";
import { enqueueDeliveries } from "./delivery-outbox.ts";
import { findInbox } from "./inboxes.ts";
import { toThreadItem } from "./records.ts";
import { findSubscribedWebhooks } from "./webhooks.ts";

/** The attachments of a message as stored: their metadata plus the decoded content. */
export interface StoredAttachment extends Attachment {
  content: Uint8Array;
}

export interface IdempotencyRecord {
  requestHash: string;
  messageId: string;
  threadId: string;
}

/** Storage operations that take part in a send, all inside one transaction. */
export interface SendTransaction {
  findInbox(podId: string, inboxId: string): Promise<Inbox | null>;
  /** The inboxes hosted here among these addresses (lowercase). */
  findInboxesByAddress(addresses: readonly string[]): Promise<{ inboxId: string; podId: string }[]>;
  findIdempotencyRecord(podId: string, key: string, notBeforeMs: number): Promise<IdempotencyRecord | null>;
  saveIdempotencyRecord(podId: string, key: string, record: IdempotencyRecord, atMs: number): Promise<void>;
  sendCount(podId: string, day: string): Promise<number>;
  addSend(podId: string, day: string): Promise<void>;
  /** The thread, in this inbox, of the first of these message ids found there. */
  findThreadOfMessages(inboxId: string, messageIds: readonly string[]): Promise<ThreadItem | null>;
  saveThread(thread: ThreadItem, isNew: boolean): Promise<void>;
  insertMessage(message: Omit<Message, "attachments">): Promise<void>;
  insertAttachments(messageId: string, attachments: readonly StoredAttachment[]): Promise<void>;
  /** Enabled webhooks of the tenant subscribed to this event type for this inbox. */
  findSubscribedWebhooks(podId: string, eventType: string, inboxId: string): Promise<string[]>;
  enqueueDeliveries(deliveries: readonly NewDelivery[], at: string, nowMs: number): Promise<void>;
}

const inboxesAmong = new PreparedQuery((db, p: { addresses: string }) =>
  db.selectFrom("inboxes").select(["inbox_id", "pod_id"]).where(inJsonList("inbox_id", p.addresses)),
);

const idempotencyRecord = new PreparedQuery((db, p: { podId: string; key: string; notBeforeMs: number }) =>
  db
    .selectFrom("idempotency_keys")
    .select(["request_hash", "message_id", "thread_id"])
    .where("pod_id", "=", p.podId)
    .where("idempotency_key", "=", p.key)
    .where("created_at_ms", ">=", p.notBeforeMs),
);

const upsertIdempotencyRecord = new PreparedQuery(
  (db, p: IdempotencyRecord & { podId: string; key: string; atMs: number }) =>
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
        oc.columns(["pod_id", "idempotency_key"]).doUpdateSet({
          request_hash: p.requestHash,
          message_id: p.messageId,
          thread_id: p.threadId,
          created_at_ms: p.atMs,
        }),
      ),
);

const sendsOfDay = new PreparedQuery((db, p: { podId: string; day: string }) =>
  db.selectFrom("send_counts").select("count").where("pod_id", "=", p.podId).where("day", "=", p.day),
);

const countSend = new PreparedQuery((db, p: { podId: string; day: string }) =>
  db
    .insertInto("send_counts")
    .values({ pod_id: p.podId, day: p.day, count: 1 })
    .onConflict((oc) =>
      oc.columns(["pod_id", "day"]).doUpdateSet((eb) => ({ count: eb("send_counts.count", "+", 1) })),
    ),
);

const threadsOfMessages = new PreparedQuery((db, p: { inboxId: string; messageIds: string }) =>
  db
    .selectFrom("messages")
    .select(["message_id", "thread_id"])
    .where("inbox_id", "=", p.inboxId)
    .where(inJsonList("message_id", p.messageIds)),
);

const threadById = new PreparedQuery((db, p: { threadId: string }) =>
  db.selectFrom("threads").selectAll().where("thread_id", "=", p.threadId),
);

/** The thread columns a new message changes. */
interface ThreadColumns {
  subject: string | null;
  participants: string;
  labels: string;
  message_count: number;
  last_message_at: string;
  updated_at: string;
}

const insertThread = new PreparedQuery(
  (db, p: ThreadColumns & { thread_id: string; inbox_id: string; created_at: string }) =>
    db.insertInto("threads").values({
      thread_id: p.thread_id,
      inbox_id: p.inbox_id,
      created_at: p.created_at,
      subject: p.subject,
      participants: p.participants,
      labels: p.labels,
      message_count: p.message_count,
      last_message_at: p.last_message_at,
      updated_at: p.updated_at,
    }),
);

const updateThread = new PreparedQuery((db, p: ThreadColumns & { thread_id: string }) =>
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
);

const insertMessageRow = new PreparedQuery((db, p: Insertable<MessageTable>) =>
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
);

const insertAttachment = new PreparedQuery((db, p: Insertable<AttachmentTable>) =>
  db.insertInto("attachments").values({
    message_id: p.message_id,
    attachment_id: p.attachment_id,
    position: p.position,
    filename: p.filename,
    content_type: p.content_type,
    size: p.size,
    content: p.content,
  }),
);

export class SqliteSendTransaction implements SendTransaction {
  readonly #trx: Transaction<DatabaseSchema>;

  constructor(trx: Transaction<DatabaseSchema>) {
    this.#trx = trx;
  }

  findInbox(podId: string, inboxId: string): Promise<Inbox | null> {
    return findInbox(this.#trx, podId, inboxId);
  }

  async findInboxesByAddress(addresses: readonly string[]) {
    if (addresses.length === 0) {
      return [];
    }
    const rows = await inboxesAmong.rows(this.#trx, { addresses: JSON.stringify(addresses) });
    return rows.map((row) => ({ inboxId: row.inbox_id, podId: row.pod_id }));
  }

  async findIdempotencyRecord(podId: string, key: string, notBeforeMs: number): Promise<IdempotencyRecord | null> {
    const row = await idempotencyRecord.first(this.#trx, { podId, key, notBeforeMs });
    return row ? { requestHash: row.request_hash, messageId: row.message_id, threadId: row.thread_id } : null;
  }

  async saveIdempotencyRecord(podId: string, key: string, record: IdempotencyRecord, atMs: number) {
    await upsertIdempotencyRecord.execute(this.#trx, { ...record, podId, key, atMs });
  }

  async sendCount(podId: string, day: string): Promise<number> {
    const row = await sendsOfDay.first(this.#trx, { podId, day });
    return row?.count ?? 0;
  }

  async addSend(podId: string, day: string) {
    await countSend.execute(this.#trx, { podId, day });
  }

  async findThreadOfMessages(inboxId: string, messageIds: readonly string[]): Promise<ThreadItem | null> {
    if (messageIds.length === 0) {
      return null;
    }
    const rows = await threadsOfMessages.rows(this.#trx, { inboxId, messageIds: JSON.stringify(messageIds) });
    for (const id of messageIds) {
      const match = rows.find((row) => row.message_id === id);
      if (match) {
        const thread = await threadById.first(this.#trx, { threadId: match.thread_id });
        if (!thread) {
          throw new Error(`The thread ${match.thread_id} of message ${id} is missing.`);
        }
        return toThreadItem(thread);
      }
    }
    return null;
  }

  async saveThread(thread: ThreadItem, isNew: boolean) {
    const columns = {
      subject: thread.subject,
      participants: JSON.stringify(thread.participants),
      labels: JSON.stringify(thread.labels),
      message_count: thread.message_count,
      last_message_at: thread.last_message_at,
      updated_at: thread.updated_at,
    };
    if (isNew) {
      await insertThread.execute(this.#trx, {
        thread_id: thread.thread_id,
        inbox_id: thread.inbox_id,
        created_at: thread.created_at,
        ...columns,
      });
    } else {
      await updateThread.execute(this.#trx, { thread_id: thread.thread_id, ...columns });
    }
  }

  async insertMessage(message: Omit<Message, "attachments">) {
    await insertMessageRow.execute(this.#trx, {
      inbox_id: message.inbox_id,
      message_id: message.message_id,
      thread_id: message.thread_id,
      labels: JSON.stringify(message.labels),
      sender: message.from,
      to_addresses: JSON.stringify(message.to),
      cc_addresses: JSON.stringify(message.cc),
      bcc_addresses: JSON.stringify(message.bcc),
      reply_to_addresses: JSON.stringify(message.reply_to),
      subject: message.subject,
      preview: message.preview,
      text_body: message.text,
      html_body: message.html,
      in_reply_to: message.in_reply_to,
      reference_ids: JSON.stringify(message.references),
      headers: JSON.stringify(message.headers),
      size: message.size,
      timestamp: message.timestamp,
      created_at: message.created_at,
      updated_at: message.updated_at,
    });
  }

  async insertAttachments(messageId: string, attachments: readonly StoredAttachment[]) {
    // One row per statement, in order: a multi-row insert would be a new statement for every number of rows.
    for (const [position, attachment] of attachments.entries()) {
      await insertAttachment.execute(this.#trx, {
        message_id: messageId,
        attachment_id: attachment.attachment_id,
        position,
        filename: attachment.filename,
        content_type: attachment.content_type,
        size: attachment.size,
        content: attachment.content,
      });
    }
  }

  findSubscribedWebhooks(podId: string, eventType: string, inboxId: string): Promise<string[]> {
    return findSubscribedWebhooks(this.#trx, podId, eventType, inboxId);
  }

  enqueueDeliveries(deliveries: readonly NewDelivery[], at: string, nowMs: number): Promise<void> {
    return enqueueDeliveries(this.#trx, deliveries, at, nowMs);
  }
}
