import type { ServerDatabase } from "../database.ts";
import { notInJsonList } from "../json-list.ts";
import { PreparedQuery } from "../prepared-query.ts";
import { rowLimit } from "../row-limit.ts";
import type { DeliveryStatus } from "../schema.ts";

// The webhook delivery outbox: one row per event and subscribed webhook, written in the transaction that raised the
// event and worked off by the delivery worker.

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

const insertDelivery = new PreparedQuery((db, p: NewDelivery & { at: string; nowMs: number }) =>
  db.insertInto("webhook_deliveries").values({
    webhook_id: p.webhookId,
    event_id: p.eventId,
    event_type: p.eventType,
    payload: p.payload,
    status: "pending",
    attempts: 0,
    next_attempt_at_ms: p.nowMs,
    created_at: p.at,
  }),
);

const dueNow = new PreparedQuery((db, p: { nowMs: number; limit: number; excluding: string }) =>
  db
    .selectFrom("webhook_deliveries as d")
    .leftJoin("webhooks as w", "w.webhook_id", "d.webhook_id")
    .select(["d.seq", "d.event_id", "d.payload", "d.attempts", "d.webhook_id", "w.url", "w.secret", "w.enabled"])
    .where("d.status", "=", "pending")
    .where("d.next_attempt_at_ms", "<=", p.nowMs)
    .where(notInJsonList("d.seq", p.excluding))
    .orderBy("d.next_attempt_at_ms")
    .orderBy("d.seq")
    .limit(rowLimit(p.limit)),
);

const pendingDueLater = new PreparedQuery((db, p: { nowMs: number }) =>
  db
    .updateTable("webhook_deliveries")
    .set({ next_attempt_at_ms: p.nowMs })
    .where("status", "=", "pending")
    .where("next_attempt_at_ms", ">", p.nowMs),
);

const saveState = new PreparedQuery((db, p: DeliveryState & { seq: number }) =>
  db
    .updateTable("webhook_deliveries")
    .set({
      status: p.status,
      attempts: p.attempts,
      next_attempt_at_ms: p.nextAttemptAtMs,
      last_error: p.lastError,
      last_status_code: p.lastStatusCode,
      finished_at: p.finishedAt,
    })
    .where("seq", "=", p.seq),
);

const earliestDue = new PreparedQuery((db, p: { excluding: string }) =>
  db
    .selectFrom("webhook_deliveries")
    .select((eb) => eb.fn.min("next_attempt_at_ms").as("due"))
    .where("status", "=", "pending")
    .where(notInJsonList("seq", p.excluding)),
);

const deliveriesOf = new PreparedQuery((db, p: { webhookId: string }) =>
  db.selectFrom("webhook_deliveries").selectAll().where("webhook_id", "=", p.webhookId).orderBy("seq"),
);

/** Adds pending deliveries, due at once. */
export async function enqueueDeliveries(
  db: ServerDatabase,
  deliveries: readonly NewDelivery[],
  at: string,
  nowMs: number,
): Promise<void> {
  if (deliveries.length === 0) {
    return;
  }
  // One row per statement: a multi-row insert would be a new statement for every number of rows.
  for (const delivery of deliveries) {
    await insertDelivery.execute(db, { ...delivery, at, nowMs });
  }
}

/** Pending deliveries due at `nowMs`, oldest first, leaving out those in `excluding`. */
export async function dueDeliveries(
  db: ServerDatabase,
  nowMs: number,
  limit: number,
  excluding: readonly number[],
): Promise<DueDelivery[]> {
  const rows = await dueNow.rows(db, { nowMs, limit, excluding: JSON.stringify(excluding) });
  return rows.map((row) => ({
    seq: row.seq,
    eventId: row.event_id,
    payload: row.payload,
    attempts: row.attempts,
    webhookId: row.webhook_id,
    webhook:
      row.url === null || row.secret === null ? null : { url: row.url, secret: row.secret, enabled: row.enabled === 1 },
  }));
}

export async function makePendingDue(db: ServerDatabase, nowMs: number): Promise<void> {
  await pendingDueLater.execute(db, { nowMs });
}

export async function updateDelivery(db: ServerDatabase, seq: number, state: DeliveryState): Promise<void> {
  await saveState.execute(db, { ...state, seq });
}

export async function nextDueAt(db: ServerDatabase, excluding: readonly number[]): Promise<number | null> {
  const row = await earliestDue.first(db, { excluding: JSON.stringify(excluding) });
  return row?.due ?? null;
}

export async function listDeliveries(
  db: ServerDatabase,
  webhookId: string,
): Promise<(DeliveryState & { eventId: string; eventType: string })[]> {
  const rows = await deliveriesOf.rows(db, { webhookId });
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
