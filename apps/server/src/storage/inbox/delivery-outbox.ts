import type { Transaction } from "kysely";
import { randomBase62 } from "../../ids.ts";
import type {
  ClaimableRows,
  ClaimQueue,
  ClaimRequest,
  ClaimShare,
  ClaimUpdate,
  GroupedCandidate,
} from "../claimed-rows.ts";
import { releaseEveryClaim } from "../claimed-rows.ts";
import type { ServerDatabase } from "../database.ts";
import { insertRows } from "../insert-rows.ts";
import type { DatabaseSchema, DeliveryStatus, WebhookDeliveryRow } from "../schema.ts";
import { SqlClaimQueue } from "../sql-claim-queue.ts";
import type { SqlDialect } from "../sql-dialect.ts";

// The webhook delivery outbox: one row per event and subscribed webhook, written in the transaction that raised the
// event, and worked off by the delivery workers of every instance on the database.

export interface NewDelivery {
  webhookId: string;
  /** The inbox whose event it is: the deliveries go when the inbox is deleted. */
  inboxId: string;
  eventId: string;
  eventType: string;
  payload: string;
}

/** A delivery claimed by this instance, with what is needed to attempt it. */
export interface ClaimedDelivery {
  seq: number;
  eventId: string;
  eventType: string;
  payload: string;
  attempts: number;
  webhookId: string;
  /** Null when the webhook was deleted since the event. */
  webhook: { podId: string; url: string; secret: string; enabled: boolean } | null;
}

/** The group of a delivery in a claim's share: its webhook's pod ("" once the webhook is deleted). */
export const deliveryGroup = (delivery: ClaimedDelivery): string => delivery.webhook?.podId ?? "";

/** One attempt as the delivery log keeps it. */
export interface RecordedAttempt {
  attemptedAt: string;
  /** The receiver's answer; null when none came. */
  statusCode: number | null;
  /** Why it failed; null when it succeeded. */
  error: string | null;
  latencyMs: number;
}

export interface DeliveryState {
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAtMs: number;
  lastError: string | null;
  lastStatusCode: number | null;
  finishedAt: string | null;
  /** When the outcome is recorded. */
  updatedAt: string;
  /** The attempt that led to this state; absent when none was made (a cancelled delivery). */
  attempt?: RecordedAttempt;
}

/** The outbox as the delivery worker uses it: its pending deliveries are claimed as {@link ClaimQueue} says. */
export interface DeliveryOutbox extends ClaimQueue<ClaimedDelivery> {
  /**
   * Records an attempt's outcome, and the attempt itself in the delivery log, in one transaction, and ends the
   * claim. Nothing is recorded once the claim is no longer `claimant`'s.
   */
  recordAttempt(seq: number, claimant: string, state: DeliveryState): Promise<void>;
  /** Ends every claim (the embedded database: no other instance can hold one) and makes pending deliveries due. */
  releaseAllClaims(nowMs: number): Promise<void>;
}

/** The public id of a webhook delivery. */
const newDeliveryId = (): string => `dlv_${randomBase62(16)}`;

const insertDeliveries = insertRows(
  "webhook_deliveries",
  (p: NewDelivery & { deliveryId: string; at: string; nowMs: number }) => ({
    delivery_id: p.deliveryId,
    webhook_id: p.webhookId,
    inbox_id: p.inboxId,
    event_id: p.eventId,
    event_type: p.eventType,
    payload: p.payload,
    status: "pending" as const,
    attempts: 0,
    next_attempt_at_ms: p.nowMs,
    created_at: p.at,
    updated_at: p.at,
  }),
);

/** Adds pending deliveries, due at once (inside the transaction that raised the event). */
export function enqueueDeliveries(
  db: ServerDatabase,
  deliveries: readonly NewDelivery[],
  at: string,
  nowMs: number,
): Promise<void> {
  return insertDeliveries(
    db,
    deliveries.map((delivery) => ({ ...delivery, deliveryId: newDeliveryId(), at, nowMs })),
  );
}

const DELIVERY_ROWS = { table: "webhook_deliveries", waiting: ["pending"] } satisfies ClaimableRows;

/**
 * The due, free deliveries a claim with a share prefers: every pod's oldest first, then every pod's second oldest,
 * and so on (round robin across pods), none of a pod the claimant already attempts its share of. The pod is the
 * webhook's. `limit` times the share are listed, enough to fill the claim when every pod has some in flight already
 * or another instance is claiming some of them at the same moment.
 */
async function pickAcrossPods(
  trx: Transaction<DatabaseSchema>,
  dialect: SqlDialect,
  claim: ClaimRequest,
  share: ClaimShare,
): Promise<GroupedCandidate[]> {
  const full = [...share.inFlight].filter(([, count]) => count >= share.perGroup).map(([pod]) => pod);
  const ranked = trx
    .selectFrom("webhook_deliveries as d")
    .leftJoin("webhooks as w", "w.webhook_id", "d.webhook_id")
    .select((eb) => [
      "d.seq as seq",
      "d.next_attempt_at_ms as due",
      eb.fn.coalesce("w.pod_id", eb.val("")).as("pod"),
      eb.fn
        .agg<number>("row_number")
        .over((over) => over.partitionBy("w.pod_id").orderBy("d.next_attempt_at_ms").orderBy("d.seq"))
        .as("place"),
    ])
    .where("d.status", "=", "pending")
    .where("d.next_attempt_at_ms", "<=", claim.dueMs)
    .where((eb) => eb.or([eb("d.claimed_until_ms", "is", null), eb("d.claimed_until_ms", "<", claim.nowMs)]));
  const candidates = await trx
    .selectFrom(ranked.as("ranked"))
    .select(["seq", "pod"])
    .where((eb) => eb.not(dialect.inList("pod", dialect.listParam(full))))
    .orderBy("place")
    .orderBy("due")
    .orderBy("seq")
    .limit(dialect.rowCount(claim.limit * share.perGroup))
    .execute();
  return candidates.map((row) => ({ seq: row.seq, group: row.pod }));
}

/** The columns a claim reads back of a delivery. */
const CLAIMED_COLUMNS = [
  "seq",
  "event_id",
  "event_type",
  "payload",
  "attempts",
  "webhook_id",
  "next_attempt_at_ms",
] as const;
type ClaimedDeliveryRow = Pick<WebhookDeliveryRow, (typeof CLAIMED_COLUMNS)[number]>;

export class SqlDeliveryOutbox
  extends SqlClaimQueue<"webhook_deliveries", ClaimedDeliveryRow, ClaimedDelivery>
  implements DeliveryOutbox
{
  protected readonly rows = DELIVERY_ROWS;

  protected readClaimed(update: ClaimUpdate<"webhook_deliveries">) {
    return update.returning(CLAIMED_COLUMNS).execute();
  }

  protected pickWithinShare(trx: Transaction<DatabaseSchema>, claim: ClaimRequest, share: ClaimShare) {
    return pickAcrossPods(trx, this.dialect, claim, share);
  }

  protected async toClaims(claimed: ClaimedDeliveryRow[]): Promise<ClaimedDelivery[]> {
    const webhooks = await this.db
      .selectFrom("webhooks")
      .select(["webhook_id", "pod_id", "url", "secret", "enabled"])
      .where(
        this.dialect.inList("webhook_id", this.dialect.listParam([...new Set(claimed.map((row) => row.webhook_id))])),
      )
      .execute();
    const byId = new Map(webhooks.map((row) => [row.webhook_id, row]));
    return claimed.map((row) => {
      const webhook = byId.get(row.webhook_id);
      return {
        seq: row.seq,
        eventId: row.event_id,
        eventType: row.event_type,
        payload: row.payload,
        attempts: row.attempts,
        webhookId: row.webhook_id,
        webhook: webhook
          ? { podId: webhook.pod_id, url: webhook.url, secret: webhook.secret, enabled: webhook.enabled === 1 }
          : null,
      };
    });
  }

  async recordAttempt(seq: number, claimant: string, state: DeliveryState) {
    await this.db.transaction().execute(async (trx) => {
      // Only while the claim is this instance's: after it ran out another instance may have attempted and recorded.
      const updated = await trx
        .updateTable("webhook_deliveries")
        .set({
          status: state.status,
          attempts: state.attempts,
          next_attempt_at_ms: state.nextAttemptAtMs,
          last_error: state.lastError,
          last_status_code: state.lastStatusCode,
          finished_at: state.finishedAt,
          updated_at: state.updatedAt,
          claimed_by: null,
          claimed_until_ms: null,
        })
        .where("seq", "=", seq)
        .where("claimed_by", "=", claimant)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n || !state.attempt) {
        return;
      }
      await trx
        .insertInto("webhook_delivery_attempts")
        .values({
          delivery_seq: seq,
          attempted_at: state.attempt.attemptedAt,
          status_code: state.attempt.statusCode,
          error: state.attempt.error,
          latency_ms: state.attempt.latencyMs,
        })
        .execute();
    });
  }

  override async releaseAllClaims(nowMs: number) {
    await this.db.transaction().execute(async (trx) => {
      await releaseEveryClaim(trx, DELIVERY_ROWS);
      await trx
        .updateTable("webhook_deliveries")
        .set({ next_attempt_at_ms: nowMs })
        .where("status", "=", "pending")
        .where("next_attempt_at_ms", ">", nowMs)
        .execute();
    });
  }
}
