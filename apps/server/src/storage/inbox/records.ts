import type { Attachment, Inbox, Message, MessageItem, ThreadItem, Webhook } from "@pigeonhole/inbox-types";
import type { Selectable } from "kysely";
import type { InboxTable, MessageTable, ThreadTable, WebhookTable } from "../schema.ts";

// How stored rows become the records the Inbox API answers. List-valued columns hold JSON text.

export const parseList = (json: string): string[] => JSON.parse(json) as string[];
export const parseNullableList = (json: string | null): string[] | null => (json === null ? null : parseList(json));

export const toInbox = (row: Selectable<InboxTable>): Inbox => ({
  pod_id: row.pod_id,
  inbox_id: row.inbox_id,
  display_name: row.display_name,
  client_id: row.client_id,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export const toThreadItem = (row: Selectable<ThreadTable>): ThreadItem => ({
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

export const toMessageItem = (row: Selectable<MessageTable>, attachments: Attachment[]): MessageItem => ({
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

export const toMessage = (row: Selectable<MessageTable>, attachments: Attachment[]): Message => ({
  ...toMessageItem(row, attachments),
  reply_to: parseList(row.reply_to_addresses),
  text: row.text_body,
  html: row.html_body,
});

export const toWebhook = (row: Selectable<WebhookTable>): Webhook => ({
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
