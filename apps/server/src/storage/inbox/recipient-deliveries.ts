import type { RecipientDelivery } from "@pigeonhole/inbox-types";
import type { ServerDatabase } from "../database.ts";
import { insertRows } from "../insert-rows.ts";
import { PreparedQuery } from "../prepared-query.ts";
import type { RecipientDeliveryStatus } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import { perDialect } from "../sql-dialect.ts";

// The per-recipient delivery status of sent messages (see migration 0006), as the send writes it and reads show it.

export interface NewRecipientDelivery {
  podId: string;
  /** The sending inbox: the rows belong to the sender's copy. */
  inboxId: string;
  messageId: string;
  address: string;
  status: RecipientDeliveryStatus;
  updatedAt: string;
  /** When the relay is first tried; null for a status that is final at once (`local`, `captured`). */
  nextAttemptAtMs: number | null;
}

const insertDeliveries = insertRows("recipient_deliveries", (p: NewRecipientDelivery) => ({
  pod_id: p.podId,
  inbox_id: p.inboxId,
  message_id: p.messageId,
  address: p.address,
  status: p.status,
  smtp_reply: null,
  attempts: 0,
  updated_at: p.updatedAt,
  next_attempt_at_ms: p.nextAttemptAtMs,
}));

export function insertRecipientDeliveries(db: ServerDatabase, rows: readonly NewRecipientDelivery[]): Promise<void> {
  return insertDeliveries(db, rows);
}

const queries = perDialect((dialect) => ({
  ofMessages: new PreparedQuery((db, p: { inboxId: string; messageIds: unknown }) =>
    db
      .selectFrom("recipient_deliveries")
      .select(["message_id", "address", "status", "smtp_reply", "attempts", "updated_at"])
      .where("inbox_id", "=", p.inboxId)
      .where(dialect.inList("message_id", p.messageIds))
      .orderBy("seq"),
  ),
}));

/** The deliveries of these messages of one inbox, by message id, in recipient order. */
export async function recipientDeliveriesOf(
  db: ServerDatabase,
  dialect: SqlDialect,
  inboxId: string,
  messageIds: readonly string[],
): Promise<Map<string, RecipientDelivery[]>> {
  const byMessage = new Map<string, RecipientDelivery[]>();
  if (messageIds.length === 0) {
    return byMessage;
  }
  const rows = await queries(dialect).ofMessages.rows(db, { inboxId, messageIds: dialect.listParam(messageIds) });
  for (const { message_id, ...delivery } of rows) {
    byMessage.set(message_id, [...(byMessage.get(message_id) ?? []), delivery]);
  }
  return byMessage;
}
