import type { Inbox, Message, MessageItem, Thread, ThreadItem, Webhook } from "@pigeonhole/inbox-types";
import type { ServerDatabase } from "../database.ts";
import type { DeliveryState, DueDelivery } from "./delivery-outbox.ts";
import * as outbox from "./delivery-outbox.ts";
import type { CreateInboxResult, NewInbox } from "./inboxes.ts";
import * as inboxes from "./inboxes.ts";
import * as messages from "./messages.ts";
import type { PageRequest, Positioned } from "./paging.ts";
import type { SendTransaction } from "./send-transaction.ts";
import { SqliteSendTransaction } from "./send-transaction.ts";
import type { CreateWebhookResult, ReplaceWebhookResult, WebhookSettings } from "./webhooks.ts";
import * as webhooks from "./webhooks.ts";

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

/** The inbox service's storage in SQLite; each concept lives in its own module of this folder. */
export class SqliteInboxRepository implements InboxRepository {
  readonly #db: ServerDatabase;

  constructor(db: ServerDatabase) {
    this.#db = db;
  }

  createInbox(inbox: NewInbox) {
    return inboxes.createInbox(this.#db, inbox);
  }

  findInbox(podId: string, inboxId: string) {
    return inboxes.findInbox(this.#db, podId, inboxId);
  }

  listInboxes(podId: string, page: PageRequest) {
    return inboxes.listInboxes(this.#db, podId, page);
  }

  listMessages(inboxId: string, page: PageRequest) {
    return messages.listMessages(this.#db, inboxId, page);
  }

  findMessage(inboxId: string, messageId: string) {
    return messages.findMessage(this.#db, inboxId, messageId);
  }

  listThreads(inboxId: string, page: PageRequest) {
    return messages.listThreads(this.#db, inboxId, page);
  }

  findThread(inboxId: string, threadId: string) {
    return messages.findThread(this.#db, inboxId, threadId);
  }

  inSendTransaction<T>(work: (tx: SendTransaction) => Promise<T>): Promise<T> {
    return this.#db.transaction().execute((trx) => work(new SqliteSendTransaction(trx)));
  }

  createWebhook(podId: string, webhookId: string, secret: string, settings: WebhookSettings, at: string) {
    return webhooks.createWebhook(this.#db, podId, webhookId, secret, settings, at);
  }

  findWebhook(podId: string, webhookId: string) {
    return webhooks.findWebhook(this.#db, podId, webhookId);
  }

  listWebhooks(podId: string, page: PageRequest) {
    return webhooks.listWebhooks(this.#db, podId, page);
  }

  replaceWebhook(podId: string, webhookId: string, settings: WebhookSettings, at: string) {
    return webhooks.replaceWebhook(this.#db, podId, webhookId, settings, at);
  }

  deleteWebhook(podId: string, webhookId: string) {
    return webhooks.deleteWebhook(this.#db, podId, webhookId);
  }

  dueDeliveries(nowMs: number, limit: number, excluding: readonly number[]) {
    return outbox.dueDeliveries(this.#db, nowMs, limit, excluding);
  }

  makePendingDue(nowMs: number) {
    return outbox.makePendingDue(this.#db, nowMs);
  }

  updateDelivery(seq: number, state: DeliveryState) {
    return outbox.updateDelivery(this.#db, seq, state);
  }

  nextDueAt(excluding: readonly number[]) {
    return outbox.nextDueAt(this.#db, excluding);
  }

  listDeliveries(webhookId: string) {
    return outbox.listDeliveries(this.#db, webhookId);
  }
}
