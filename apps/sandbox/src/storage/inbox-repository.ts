import type { Attachment, Inbox, Message, MessageItem, Thread, ThreadItem, Webhook } from "@pigeonhole/inbox-types";
import type { Selectable, Transaction } from "kysely";
import { sql } from "kysely";
import type { PageCursor } from "../inbox/page-token.ts";
import type { SandboxDatabase } from "./database.ts";
import type { DatabaseSchema, DeliveryStatus, MessageTable, ThreadTable, WebhookTable } from "./schema.ts";

/** A row of a newest-first list with its position, from which the next page starts. */
export interface Positioned<T> {
  item: T;
  cursor: PageCursor;
}

export interface PageRequest {
  /** Rows to fetch (the page size plus one, to learn whether more follow). */
  limit: number;
  after?: PageCursor;
}

export interface NewInbox {
  inboxId: string;
  podId: string;
  displayName: string | null;
  clientId: string | null;
  createdAt: string;
}

export type CreateInboxResult = { created: Inbox } | { existing: Inbox } | { addressTaken: true };

/** The attachments of a message as stored: their metadata plus the decoded content. */
export interface StoredAttachment extends Attachment {
  content: Uint8Array;
}

export interface IdempotencyRecord {
  requestHash: string;
  messageId: string;
  threadId: string;
}

/** A webhook with the tenant that owns it. */
export interface WebhookSettings {
  url: string;
  clientId: string | null;
  enabled: boolean;
  eventTypes: string[] | null;
  inboxIds: string[] | null;
}

export type CreateWebhookResult = { created: Webhook } | { existing: Webhook };
export type ReplaceWebhookResult = { replaced: Webhook } | { missing: true } | { clientIdTaken: string };

export interface NewDelivery {
  webhookId: string;
  eventId: string;
  eventType: string;
  payload: string;
}

/** A delivery that is due, with what is needed to attempt it. */
export interface DueDelivery {
  seq: number;
  eventId: string;
  payload: string;
  attempts: number;
  webhookId: string;
  /** Null when the webhook was deleted since the event. */
  webhook: { url: string; secret: string; enabled: boolean } | null;
}

export interface DeliveryState {
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAtMs: number;
  lastError: string | null;
  lastStatusCode: number | null;
  finishedAt: string | null;
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

/** Storage of the inbox service. Every read is scoped to a tenant (pod) or to an inbox already checked against one. */
export interface InboxRepository {
  createInbox(inbox: NewInbox): Promise<CreateInboxResult>;
  findInbox(podId: string, inboxId: string): Promise<Inbox | null>;
  listInboxes(podId: string, page: PageRequest): Promise<Positioned<Inbox>[]>;

  listMessages(inboxId: string, page: PageRequest): Promise<Positioned<MessageItem>[]>;
  findMessage(inboxId: string, messageId: string): Promise<Message | null>;
  listThreads(inboxId: string, page: PageRequest): Promise<Positioned<ThreadItem>[]>;
  findThread(inboxId: string, threadId: string): Promise<Thread | null>;
  /** Runs `work` in one transaction: all of it is stored, or none. */
  inSendTransaction<T>(work: (tx: SendTransaction) => Promise<T>): Promise<T>;

  createWebhook(
    podId: string,
    webhookId: string,
    secret: string,
    settings: WebhookSettings,
    at: string,
  ): Promise<CreateWebhookResult>;
  findWebhook(podId: string, webhookId: string): Promise<Webhook | null>;
  listWebhooks(podId: string, page: PageRequest): Promise<Positioned<Webhook>[]>;
  replaceWebhook(
    podId: string,
    webhookId: string,
    settings: WebhookSettings,
    at: string,
  ): Promise<ReplaceWebhookResult>;
  deleteWebhook(podId: string, webhookId: string): Promise<boolean>;

  /** Pending deliveries due at `nowMs`, oldest first, leaving out those in `excluding`. */
  dueDeliveries(nowMs: number, limit: number, excluding: readonly number[]): Promise<DueDelivery[]>;
  /** Makes every pending delivery due now (on start: a restart delivers what was pending without waiting). */
  makePendingDue(nowMs: number): Promise<void>;
  updateDelivery(seq: number, state: DeliveryState): Promise<void>;
  /** The earliest time a pending delivery (other than those in `excluding`) is due, or null when none is pending. */
  nextDueAt(excluding: readonly number[]): Promise<number | null>;
  listDeliveries(webhookId: string): Promise<(DeliveryState & { eventId: string; eventType: string })[]>;
}

const parseList = (json: string): string[] => JSON.parse(json) as string[];
const parseNullableList = (json: string | null): string[] | null => (json === null ? null : parseList(json));

const toInbox = (row: Selectable<DatabaseSchema["inboxes"]>): Inbox => ({
  pod_id: row.pod_id,
  inbox_id: row.inbox_id,
  display_name: row.display_name,
  client_id: row.client_id,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const toThreadItem = (row: Selectable<ThreadTable>): ThreadItem => ({
  thread_id: row.thread_id,
  inbox_id: row.inbox_id,
  subject: row.subject,
  participants: parseList(row.participants),
  labels: parseList(row.labels),
  message_count: row.message_count,
  last_message_at: row.last_message_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const toMessageItem = (row: Selectable<MessageTable>, attachments: Attachment[]): MessageItem => ({
  inbox_id: row.inbox_id,
  thread_id: row.thread_id,
  message_id: row.message_id,
  labels: parseList(row.labels),
  timestamp: row.timestamp,
  from: row.sender,
  to: parseList(row.to_addresses),
  cc: parseList(row.cc_addresses),
  bcc: parseList(row.bcc_addresses),
  subject: row.subject,
  preview: row.preview,
  attachments,
  in_reply_to: row.in_reply_to,
  references: parseList(row.reference_ids),
  headers: JSON.parse(row.headers) as Record<string, string>,
  size: row.size,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const toMessage = (row: Selectable<MessageTable>, attachments: Attachment[]): Message => ({
  ...toMessageItem(row, attachments),
  reply_to: parseList(row.reply_to_addresses),
  text: row.text_body,
  html: row.html_body,
});

const toWebhook = (row: Selectable<WebhookTable>): Webhook => ({
  webhook_id: row.webhook_id,
  url: row.url,
  client_id: row.client_id,
  enabled: row.enabled === 1,
  event_types: parseNullableList(row.event_types) as Webhook["event_types"],
  inbox_ids: parseNullableList(row.inbox_ids),
  secret: row.secret,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const webhookColumns = (settings: WebhookSettings) => ({
  url: settings.url,
  client_id: settings.clientId,
  enabled: settings.enabled ? 1 : 0,
  event_types: settings.eventTypes === null ? null : JSON.stringify(settings.eventTypes),
  inbox_ids: settings.inboxIds === null ? null : JSON.stringify(settings.inboxIds),
});

type Db = SandboxDatabase | Transaction<DatabaseSchema>;

/** Keyset condition of newest-first lists: rows strictly after the cursor in `(created_at, seq)` descending order. */
const beforeCursor = ({ createdAt, seq }: PageCursor) => sql<boolean>`(created_at, seq) < (${createdAt}, ${seq})`;

class SqliteSendTransaction implements SendTransaction {
  readonly #trx: Transaction<DatabaseSchema>;

  constructor(trx: Transaction<DatabaseSchema>) {
    this.#trx = trx;
  }

  async findInbox(podId: string, inboxId: string): Promise<Inbox | null> {
    return findInbox(this.#trx, podId, inboxId);
  }

  async findInboxesByAddress(addresses: readonly string[]) {
    if (addresses.length === 0) {
      return [];
    }
    const rows = await this.#trx
      .selectFrom("inboxes")
      .select(["inbox_id", "pod_id"])
      .where("inbox_id", "in", addresses)
      .execute();
    return rows.map((row) => ({ inboxId: row.inbox_id, podId: row.pod_id }));
  }

  async findIdempotencyRecord(podId: string, key: string, notBeforeMs: number): Promise<IdempotencyRecord | null> {
    const row = await this.#trx
      .selectFrom("idempotency_keys")
      .select(["request_hash", "message_id", "thread_id"])
      .where("pod_id", "=", podId)
      .where("idempotency_key", "=", key)
      .where("created_at_ms", ">=", notBeforeMs)
      .executeTakeFirst();
    return row ? { requestHash: row.request_hash, messageId: row.message_id, threadId: row.thread_id } : null;
  }

  async saveIdempotencyRecord(podId: string, key: string, record: IdempotencyRecord, atMs: number) {
    await this.#trx
      .insertInto("idempotency_keys")
      .values({
        pod_id: podId,
        idempotency_key: key,
        request_hash: record.requestHash,
        message_id: record.messageId,
        thread_id: record.threadId,
        created_at_ms: atMs,
      })
      .onConflict((oc) =>
        oc.columns(["pod_id", "idempotency_key"]).doUpdateSet({
          request_hash: record.requestHash,
          message_id: record.messageId,
          thread_id: record.threadId,
          created_at_ms: atMs,
        }),
      )
      .execute();
  }

  async sendCount(podId: string, day: string): Promise<number> {
    const row = await this.#trx
      .selectFrom("send_counts")
      .select("count")
      .where("pod_id", "=", podId)
      .where("day", "=", day)
      .executeTakeFirst();
    return row?.count ?? 0;
  }

  async addSend(podId: string, day: string) {
    await this.#trx
      .insertInto("send_counts")
      .values({ pod_id: podId, day, count: 1 })
      .onConflict((oc) =>
        oc.columns(["pod_id", "day"]).doUpdateSet((eb) => ({ count: eb("send_counts.count", "+", 1) })),
      )
      .execute();
  }

  async findThreadOfMessages(inboxId: string, messageIds: readonly string[]): Promise<ThreadItem | null> {
    if (messageIds.length === 0) {
      return null;
    }
    const rows = await this.#trx
      .selectFrom("messages")
      .select(["message_id", "thread_id"])
      .where("inbox_id", "=", inboxId)
      .where("message_id", "in", messageIds)
      .execute();
    for (const id of messageIds) {
      const match = rows.find((row) => row.message_id === id);
      if (match) {
        const thread = await this.#trx
          .selectFrom("threads")
          .selectAll()
          .where("thread_id", "=", match.thread_id)
          .executeTakeFirstOrThrow();
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
      await this.#trx
        .insertInto("threads")
        .values({ thread_id: thread.thread_id, inbox_id: thread.inbox_id, created_at: thread.created_at, ...columns })
        .execute();
    } else {
      await this.#trx.updateTable("threads").set(columns).where("thread_id", "=", thread.thread_id).execute();
    }
  }

  async insertMessage(message: Omit<Message, "attachments">) {
    await this.#trx
      .insertInto("messages")
      .values({
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
      })
      .execute();
  }

  async insertAttachments(messageId: string, attachments: readonly StoredAttachment[]) {
    if (attachments.length === 0) {
      return;
    }
    await this.#trx
      .insertInto("attachments")
      .values(
        attachments.map((attachment, position) => ({
          message_id: messageId,
          attachment_id: attachment.attachment_id,
          position,
          filename: attachment.filename,
          content_type: attachment.content_type,
          size: attachment.size,
          content: attachment.content,
        })),
      )
      .execute();
  }

  async findSubscribedWebhooks(podId: string, eventType: string, inboxId: string): Promise<string[]> {
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

  async enqueueDeliveries(deliveries: readonly NewDelivery[], at: string, nowMs: number) {
    if (deliveries.length === 0) {
      return;
    }
    await this.#trx
      .insertInto("webhook_deliveries")
      .values(
        deliveries.map((delivery) => ({
          webhook_id: delivery.webhookId,
          event_id: delivery.eventId,
          event_type: delivery.eventType,
          payload: delivery.payload,
          status: "pending" as const,
          attempts: 0,
          next_attempt_at_ms: nowMs,
          created_at: at,
        })),
      )
      .execute();
  }
}

async function findInbox(db: Db, podId: string, inboxId: string): Promise<Inbox | null> {
  const row = await db
    .selectFrom("inboxes")
    .selectAll()
    .where("pod_id", "=", podId)
    .where("inbox_id", "=", inboxId)
    .executeTakeFirst();
  return row ? toInbox(row) : null;
}

async function attachmentsOf(db: Db, messageIds: readonly string[]): Promise<Map<string, Attachment[]>> {
  const byMessage = new Map<string, Attachment[]>();
  if (messageIds.length === 0) {
    return byMessage;
  }
  const rows = await db
    .selectFrom("attachments")
    .select(["message_id", "attachment_id", "filename", "content_type", "size"])
    .where("message_id", "in", [...new Set(messageIds)])
    .orderBy("message_id")
    .orderBy("position")
    .execute();
  for (const { message_id, ...attachment } of rows) {
    byMessage.set(message_id, [...(byMessage.get(message_id) ?? []), attachment]);
  }
  return byMessage;
}

export class SqliteInboxRepository implements InboxRepository {
  readonly #db: SandboxDatabase;

  constructor(db: SandboxDatabase) {
    this.#db = db;
  }

  async createInbox(inbox: NewInbox): Promise<CreateInboxResult> {
    return this.#db.transaction().execute(async (trx) => {
      if (inbox.clientId !== null) {
        const existing = await trx
          .selectFrom("inboxes")
          .selectAll()
          .where("pod_id", "=", inbox.podId)
          .where("client_id", "=", inbox.clientId)
          .executeTakeFirst();
        if (existing) {
          return { existing: toInbox(existing) };
        }
      }
      const taken = await trx
        .selectFrom("inboxes")
        .select("seq")
        .where("inbox_id", "=", inbox.inboxId)
        .executeTakeFirst();
      if (taken) {
        return { addressTaken: true as const };
      }
      const row = await trx
        .insertInto("inboxes")
        .values({
          inbox_id: inbox.inboxId,
          pod_id: inbox.podId,
          display_name: inbox.displayName,
          client_id: inbox.clientId,
          created_at: inbox.createdAt,
          updated_at: inbox.createdAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { created: toInbox(row) };
    });
  }

  findInbox(podId: string, inboxId: string): Promise<Inbox | null> {
    return findInbox(this.#db, podId, inboxId);
  }

  async listInboxes(podId: string, page: PageRequest): Promise<Positioned<Inbox>[]> {
    let query = this.#db.selectFrom("inboxes").selectAll().where("pod_id", "=", podId);
    if (page.after) {
      query = query.where(beforeCursor(page.after));
    }
    const rows = await query.orderBy("created_at", "desc").orderBy("seq", "desc").limit(page.limit).execute();
    return rows.map((row) => ({ item: toInbox(row), cursor: { createdAt: row.created_at, seq: row.seq } }));
  }

  async listMessages(inboxId: string, page: PageRequest): Promise<Positioned<MessageItem>[]> {
    let query = this.#db.selectFrom("messages").selectAll().where("inbox_id", "=", inboxId);
    if (page.after) {
      query = query.where(beforeCursor(page.after));
    }
    const rows = await query.orderBy("created_at", "desc").orderBy("seq", "desc").limit(page.limit).execute();
    const attachments = await attachmentsOf(
      this.#db,
      rows.map((row) => row.message_id),
    );
    return rows.map((row) => ({
      item: toMessageItem(row, attachments.get(row.message_id) ?? []),
      cursor: { createdAt: row.created_at, seq: row.seq },
    }));
  }

  async findMessage(inboxId: string, messageId: string): Promise<Message | null> {
    const row = await this.#db
      .selectFrom("messages")
      .selectAll()
      .where("inbox_id", "=", inboxId)
      .where("message_id", "=", messageId)
      .executeTakeFirst();
    if (!row) {
      return null;
    }
    const attachments = await attachmentsOf(this.#db, [messageId]);
    return toMessage(row, attachments.get(messageId) ?? []);
  }

  async listThreads(inboxId: string, page: PageRequest): Promise<Positioned<ThreadItem>[]> {
    let query = this.#db.selectFrom("threads").selectAll().where("inbox_id", "=", inboxId);
    if (page.after) {
      query = query.where(beforeCursor(page.after));
    }
    const rows = await query.orderBy("created_at", "desc").orderBy("seq", "desc").limit(page.limit).execute();
    return rows.map((row) => ({ item: toThreadItem(row), cursor: { createdAt: row.created_at, seq: row.seq } }));
  }

  async findThread(inboxId: string, threadId: string): Promise<Thread | null> {
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
      .where("thread_id", "=", threadId)
      .orderBy("created_at", "asc")
      .orderBy("seq", "asc")
      .execute();
    const attachments = await attachmentsOf(
      this.#db,
      rows.map((row) => row.message_id),
    );
    return {
      ...toThreadItem(thread),
      messages: rows.map((row) => toMessage(row, attachments.get(row.message_id) ?? [])),
    };
  }

  inSendTransaction<T>(work: (tx: SendTransaction) => Promise<T>): Promise<T> {
    return this.#db.transaction().execute((trx) => work(new SqliteSendTransaction(trx)));
  }

  async createWebhook(
    podId: string,
    webhookId: string,
    secret: string,
    settings: WebhookSettings,
    at: string,
  ): Promise<CreateWebhookResult> {
    return this.#db.transaction().execute(async (trx) => {
      if (settings.clientId !== null) {
        const existing = await trx
          .selectFrom("webhooks")
          .selectAll()
          .where("pod_id", "=", podId)
          .where("client_id", "=", settings.clientId)
          .executeTakeFirst();
        if (existing) {
          return { existing: toWebhook(existing) };
        }
      }
      const row = await trx
        .insertInto("webhooks")
        .values({
          webhook_id: webhookId,
          pod_id: podId,
          secret,
          created_at: at,
          updated_at: at,
          ...webhookColumns(settings),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { created: toWebhook(row) };
    });
  }

  async findWebhook(podId: string, webhookId: string): Promise<Webhook | null> {
    const row = await this.#db
      .selectFrom("webhooks")
      .selectAll()
      .where("pod_id", "=", podId)
      .where("webhook_id", "=", webhookId)
      .executeTakeFirst();
    return row ? toWebhook(row) : null;
  }

  async listWebhooks(podId: string, page: PageRequest): Promise<Positioned<Webhook>[]> {
    let query = this.#db.selectFrom("webhooks").selectAll().where("pod_id", "=", podId);
    if (page.after) {
      query = query.where(beforeCursor(page.after));
    }
    const rows = await query.orderBy("created_at", "desc").orderBy("seq", "desc").limit(page.limit).execute();
    return rows.map((row) => ({ item: toWebhook(row), cursor: { createdAt: row.created_at, seq: row.seq } }));
  }

  async replaceWebhook(
    podId: string,
    webhookId: string,
    settings: WebhookSettings,
    at: string,
  ): Promise<ReplaceWebhookResult> {
    return this.#db.transaction().execute(async (trx) => {
      if (settings.clientId !== null) {
        const other = await trx
          .selectFrom("webhooks")
          .select("webhook_id")
          .where("pod_id", "=", podId)
          .where("client_id", "=", settings.clientId)
          .where("webhook_id", "!=", webhookId)
          .executeTakeFirst();
        if (other) {
          return { clientIdTaken: other.webhook_id };
        }
      }
      const row = await trx
        .updateTable("webhooks")
        .set({ ...webhookColumns(settings), updated_at: at })
        .where("pod_id", "=", podId)
        .where("webhook_id", "=", webhookId)
        .returningAll()
        .executeTakeFirst();
      return row ? { replaced: toWebhook(row) } : { missing: true as const };
    });
  }

  async deleteWebhook(podId: string, webhookId: string): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const result = await trx
        .deleteFrom("webhooks")
        .where("pod_id", "=", podId)
        .where("webhook_id", "=", webhookId)
        .executeTakeFirst();
      if (result.numDeletedRows === 0n) {
        return false;
      }
      await trx
        .updateTable("webhook_deliveries")
        .set({ status: "cancelled", last_error: "The webhook was deleted." })
        .where("webhook_id", "=", webhookId)
        .where("status", "=", "pending")
        .execute();
      return true;
    });
  }

  async dueDeliveries(nowMs: number, limit: number, excluding: readonly number[]): Promise<DueDelivery[]> {
    let query = this.#db
      .selectFrom("webhook_deliveries as d")
      .leftJoin("webhooks as w", "w.webhook_id", "d.webhook_id")
      .select(["d.seq", "d.event_id", "d.payload", "d.attempts", "d.webhook_id", "w.url", "w.secret", "w.enabled"])
      .where("d.status", "=", "pending")
      .where("d.next_attempt_at_ms", "<=", nowMs);
    if (excluding.length > 0) {
      query = query.where("d.seq", "not in", excluding);
    }
    const rows = await query.orderBy("d.next_attempt_at_ms").orderBy("d.seq").limit(limit).execute();
    return rows.map((row) => ({
      seq: row.seq,
      eventId: row.event_id,
      payload: row.payload,
      attempts: row.attempts,
      webhookId: row.webhook_id,
      webhook:
        row.url === null || row.secret === null
          ? null
          : { url: row.url, secret: row.secret, enabled: row.enabled === 1 },
    }));
  }

  async makePendingDue(nowMs: number): Promise<void> {
    await this.#db
      .updateTable("webhook_deliveries")
      .set({ next_attempt_at_ms: nowMs })
      .where("status", "=", "pending")
      .where("next_attempt_at_ms", ">", nowMs)
      .execute();
  }

  async updateDelivery(seq: number, state: DeliveryState): Promise<void> {
    await this.#db
      .updateTable("webhook_deliveries")
      .set({
        status: state.status,
        attempts: state.attempts,
        next_attempt_at_ms: state.nextAttemptAtMs,
        last_error: state.lastError,
        last_status_code: state.lastStatusCode,
        finished_at: state.finishedAt,
      })
      .where("seq", "=", seq)
      .execute();
  }

  async nextDueAt(excluding: readonly number[]): Promise<number | null> {
    let query = this.#db
      .selectFrom("webhook_deliveries")
      .select((eb) => eb.fn.min("next_attempt_at_ms").as("due"))
      .where("status", "=", "pending");
    if (excluding.length > 0) {
      query = query.where("seq", "not in", excluding);
    }
    const row = await query.executeTakeFirst();
    return row?.due ?? null;
  }

  async listDeliveries(webhookId: string) {
    const rows = await this.#db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("webhook_id", "=", webhookId)
      .orderBy("seq")
      .execute();
    return rows.map((row) => ({
      eventId: row.event_id,
      eventType: row.event_type,
      status: row.status,
      attempts: row.attempts,
      nextAttemptAtMs: row.next_attempt_at_ms,
      lastError: row.last_error,
      lastStatusCode: row.last_status_code,
      finishedAt: row.finished_at,
    }));
  }
}
