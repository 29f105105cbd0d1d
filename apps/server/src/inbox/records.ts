import type {
  Attachment,
  Inbox,
  Message,
  MessageItem,
  Metadata,
  RecipientDelivery,
  ThreadItem,
  Webhook,
  WebhookDelivery,
} from "@pigeonhole/inbox-types";
import { isoTimestamp } from "../clock.ts";
import type { LoggedDelivery } from "../storage/inbox/delivery-log.ts";
import { loggedStatus } from "../storage/inbox/delivery-log.ts";
import type { NewMessageRow, ThreadColumns } from "../storage/inbox/send-store.ts";
import type { SummarizedThread, ThreadSummary } from "../storage/inbox/thread-summaries.ts";
import type { InboxRow, MessageRow, ThreadRow, WebhookRow } from "../storage/schema.ts";

// How stored rows become the records the Inbox API answers. List-valued columns hold JSON text.

const parseList = (json: string): string[] => JSON.parse(json) as string[];
const parseNullableList = (json: string | null): string[] | null => (json === null ? null : parseList(json));

export const toInbox = (row: InboxRow): Inbox => ({
  pod_id: row.pod_id,
  inbox_id: row.inbox_id,
  email: row.inbox_id,
  display_name: row.display_name,
  client_id: row.client_id,
  created_at: row.created_at,
  updated_at: row.updated_at,
  metadata: row.metadata === null ? {} : (JSON.parse(row.metadata) as Metadata),
});

/** The thread's own columns; `toThreadItem` adds what its messages say. */
export type ThreadCore = Omit<ThreadItem, keyof ThreadSummary | "timestamp">;

export const toThreadCore = (row: ThreadRow): ThreadCore => ({
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

/** A thread as lists show it: its columns, then AgentMail's names for what its messages say (see thread-summaries.ts). */
export const toThreadItem = ({ thread, summary }: SummarizedThread): ThreadItem =>
  withSummary(toThreadCore(thread), summary);

export const withSummary = (core: ThreadCore, summary: ThreadSummary): ThreadItem => ({
  ...core,
  timestamp: core.last_message_at,
  received_timestamp: summary.received_timestamp,
  sent_timestamp: summary.sent_timestamp,
  senders: summary.senders,
  recipients: summary.recipients,
  last_message_id: summary.last_message_id,
  preview: summary.preview,
  size: summary.size,
});

export const toMessageItem = (row: MessageRow, attachments: Attachment[]): MessageItem => ({
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

export const toMessage = (row: MessageRow, attachments: Attachment[], deliveries: RecipientDelivery[]): Message => ({
  ...toMessageItem(row, attachments),
  deliveries,
  reply_to: parseList(row.reply_to_addresses),
  text: row.text_body,
  html: row.html_body,
});

export const toWebhook = (row: WebhookRow): Webhook => ({
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

export const toWebhookDelivery = ({ delivery, attempts }: LoggedDelivery): WebhookDelivery => ({
  delivery_id: delivery.delivery_id,
  webhook_id: delivery.webhook_id,
  event_id: delivery.event_id,
  event_type: delivery.event_type as WebhookDelivery["event_type"],
  status: loggedStatus(delivery.status),
  attempts: attempts.map((attempt) => ({
    attempted_at: attempt.attempted_at,
    status_code: attempt.status_code,
    error: attempt.error,
    latency_ms: attempt.latency_ms,
  })),
  next_attempt_at: delivery.status === "pending" ? isoTimestamp(delivery.next_attempt_at_ms) : null,
  created_at: delivery.created_at,
  updated_at: delivery.updated_at,
});

// And back: the records a send makes, as the send store writes them.

export const toThreadColumns = (thread: ThreadCore): ThreadColumns => ({
  thread_id: thread.thread_id,
  inbox_id: thread.inbox_id,
  subject: thread.subject,
  participants: JSON.stringify(thread.participants),
  labels: JSON.stringify(thread.labels),
  message_count: thread.message_count,
  last_message_at: thread.last_message_at,
  created_at: thread.created_at,
  updated_at: thread.updated_at,
});

export const toMessageRow = (message: Omit<Message, "attachments" | "deliveries">): NewMessageRow => ({
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
