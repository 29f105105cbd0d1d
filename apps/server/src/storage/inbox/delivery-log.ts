import { sql } from "kysely";
import type { ServerDatabase } from "../database.ts";
import type { DeliveryStatus, WebhookDeliveryAttemptRow, WebhookDeliveryRow } from "../schema.ts";
import type { PageRequest, Positioned } from "./paging.ts";

// A webhook's delivery log: its deliveries with every attempt, as the Inbox API lists them, and redelivery.

/** A delivery's status as the API tells it: a cancelled delivery (its webhook was disabled) failed. */
export type LoggedDeliveryStatus = "pending" | "succeeded" | "failed";

export const STORED_STATUSES: Record<LoggedDeliveryStatus, readonly DeliveryStatus[]> = {
  pending: ["pending"],
  succeeded: ["delivered"],
  failed: ["failed", "cancelled"],
};

export const loggedStatus = (status: DeliveryStatus): LoggedDeliveryStatus =>
  status === "pending" ? "pending" : status === "delivered" ? "succeeded" : "failed";

export interface DeliveryFilter {
  status?: LoggedDeliveryStatus;
  eventType?: string;
}

/** A delivery with its attempts, oldest first. */
export interface LoggedDelivery {
  delivery: WebhookDeliveryRow;
  attempts: WebhookDeliveryAttemptRow[];
}

/** The deliveries with their attempts, oldest first. */
export async function withAttempts(db: ServerDatabase, deliveries: WebhookDeliveryRow[]): Promise<LoggedDelivery[]> {
  if (deliveries.length === 0) {
    return [];
  }
  const attempts = await db
    .selectFrom("webhook_delivery_attempts")
    .selectAll()
    .where(
      "delivery_seq",
      "in",
      deliveries.map((delivery) => delivery.seq),
    )
    .orderBy("seq")
    .execute();
  const byDelivery = new Map<number, WebhookDeliveryAttemptRow[]>();
  for (const attempt of attempts) {
    byDelivery.set(attempt.delivery_seq, [...(byDelivery.get(attempt.delivery_seq) ?? []), attempt]);
  }
  return deliveries.map((delivery) => ({ delivery, attempts: byDelivery.get(delivery.seq) ?? [] }));
}

/**
 * One page of a webhook's deliveries, newest first by `(created_at, seq)` like every inbox list, so paging while
 * deliveries are queued neither repeats nor skips one.
 */
export async function listDeliveries(
  db: ServerDatabase,
  webhookId: string,
  filter: DeliveryFilter,
  page: PageRequest,
): Promise<Positioned<LoggedDelivery>[]> {
  let query = db.selectFrom("webhook_deliveries").selectAll().where("webhook_id", "=", webhookId);
  if (filter.status) {
    query = query.where("status", "in", STORED_STATUSES[filter.status]);
  }
  if (filter.eventType) {
    query = query.where("event_type", "=", filter.eventType);
  }
  const { after } = page;
  if (after) {
    query = query.where(sql<boolean>`(created_at, seq) < (${after.createdAt}, ${after.seq})`);
  }
  const rows = await query.orderBy("created_at", "desc").orderBy("seq", "desc").limit(page.limit).execute();
  return (await withAttempts(db, rows)).map((logged) => ({
    row: logged,
    position: { createdAt: logged.delivery.created_at, seq: logged.delivery.seq },
  }));
}

export async function findDelivery(
  db: ServerDatabase,
  webhookId: string,
  deliveryId: string,
): Promise<LoggedDelivery | null> {
  const row = await db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("webhook_id", "=", webhookId)
    .where("delivery_id", "=", deliveryId)
    .executeTakeFirst();
  return row ? ((await withAttempts(db, [row]))[0] ?? null) : null;
}

/**
 * Makes a delivery due now, whatever its status: finished ones are pending again. The attempt count stays, so a
 * failed redelivery goes on with the retry schedule from where the delivery stood. A claim another instance holds
 * is left alone: its attempt ends soon and records its own outcome.
 */
export async function redeliver(
  db: ServerDatabase,
  webhookId: string,
  deliveryId: string,
  nowMs: number,
  at: string,
  /** Runs the read of the delivery with its attempts on one snapshot (see `SqlDialect.readSnapshot`). */
  inSnapshot: <T>(read: (db: ServerDatabase) => Promise<T>) => Promise<T>,
): Promise<LoggedDelivery | null> {
  const updated = await db
    .updateTable("webhook_deliveries")
    .set({ status: "pending", next_attempt_at_ms: nowMs, finished_at: null, updated_at: at })
    .where("webhook_id", "=", webhookId)
    .where("delivery_id", "=", deliveryId)
    .executeTakeFirst();
  return updated.numUpdatedRows === 0n ? null : inSnapshot((snapshot) => findDelivery(snapshot, webhookId, deliveryId));
}
