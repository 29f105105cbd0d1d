import type { ServerDatabase } from "../database.ts";
import type { LoggedDelivery, LoggedDeliveryStatus } from "./delivery-log.ts";
import { STORED_STATUSES, withAttempts } from "./delivery-log.ts";

/** What a webhook delivery must match, every field given (test control's wait): of any pod. */
export interface DeliverySearch {
  webhookId?: string;
  eventType?: string;
  eventId?: string;
  /** Where it stands now, as the delivery log tells it. */
  status?: LoggedDeliveryStatus;
  /** Created at or after this ISO 8601 timestamp. */
  since?: string;
}

/** The newest delivery matching every field of the search, by `(created_at, seq)`, with its attempts. */
export async function findNewestDelivery(db: ServerDatabase, search: DeliverySearch): Promise<LoggedDelivery | null> {
  let query = db.selectFrom("webhook_deliveries").selectAll();
  if (search.webhookId !== undefined) {
    query = query.where("webhook_id", "=", search.webhookId);
  }
  if (search.eventType !== undefined) {
    query = query.where("event_type", "=", search.eventType);
  }
  if (search.eventId !== undefined) {
    query = query.where("event_id", "=", search.eventId);
  }
  if (search.status !== undefined) {
    query = query.where("status", "in", STORED_STATUSES[search.status]);
  }
  if (search.since !== undefined) {
    query = query.where("created_at", ">=", search.since);
  }
  const row = await query.orderBy("created_at", "desc").orderBy("seq", "desc").limit(1).executeTakeFirst();
  return row ? ((await withAttempts(db, [row]))[0] ?? null) : null;
}
