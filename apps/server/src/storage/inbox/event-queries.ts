import { sql } from "kysely";
import type { ServerDatabase } from "../database.ts";
import type { SqlDialect } from "../sql-dialect.ts";

/** A stored event as an inbox's event list shows it. */
export interface InboxEventRow {
  seq: number;
  eventId: string;
  eventType: string;
  payload: string;
  createdAtMs: number;
}

/** How many events of one type were stored in the period starting `periodStartMs`. */
export interface EventCount {
  eventType: string;
  periodStartMs: number;
  count: number;
}

/** What to count: a pod's events (or one inbox's), of some types, in `[startMs, endMs)`, by periods from `startMs`. */
export interface EventCountQuery {
  podId: string;
  inboxId?: string;
  eventTypes?: readonly string[];
  startMs: number;
  endMs: number;
  periodMs: number;
}

/** Reads over the stored events (kept 7 days, see event-log.ts) for the API: an inbox's events and counts by type. */
export interface EventQueries {
  /** Up to `limit` of the inbox's events after position `after` (exclusive), newest first unless `ascending`. */
  listInboxEvents(
    podId: string,
    inboxId: string,
    page: { limit: number; after?: number; ascending: boolean },
  ): Promise<InboxEventRow[]>;
  /** The non-zero counts of each event type by period, in no particular order. */
  countEvents(query: EventCountQuery): Promise<EventCount[]>;
}

export class SqlEventQueries implements EventQueries {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  async listInboxEvents(podId: string, inboxId: string, page: { limit: number; after?: number; ascending: boolean }) {
    let query = this.#db
      .selectFrom("events")
      .select(["pod_seq", "event_id", "event_type", "payload", "created_at_ms"])
      .where("pod_id", "=", podId)
      .where("inbox_id", "=", inboxId);
    if (page.after !== undefined) {
      query = query.where("pod_seq", page.ascending ? ">" : "<", page.after);
    }
    const rows = await query
      .orderBy("pod_seq", page.ascending ? "asc" : "desc")
      .limit(this.#dialect.rowCount(page.limit))
      .execute();
    return rows.map((row) => ({
      seq: Number(row.pod_seq),
      eventId: row.event_id,
      eventType: row.event_type,
      payload: row.payload,
      createdAtMs: Number(row.created_at_ms),
    }));
  }

  async countEvents(query: EventCountQuery) {
    // The offset of each event's period from the start: its offset less the remainder, in whole milliseconds on both
    // databases (`%` works on integers in each).
    const offset = sql<number>`(created_at_ms - ${query.startMs})`;
    const periodOffset = sql<number | string>`${offset} - (${offset} % ${query.periodMs})`;
    let select = this.#db
      .selectFrom("events")
      .select((eb) => [
        "event_type",
        periodOffset.as("period_offset"),
        eb.fn.countAll<number | string | bigint>().as("count"),
      ])
      .where("pod_id", "=", query.podId)
      .where("created_at_ms", ">=", query.startMs)
      .where("created_at_ms", "<", query.endMs);
    if (query.inboxId !== undefined) {
      select = select.where("inbox_id", "=", query.inboxId);
    }
    if (query.eventTypes !== undefined) {
      select = select.where(this.#dialect.inList("event_type", this.#dialect.listParam(query.eventTypes)));
    }
    // By position: PostgreSQL would not see the period expression, whose parameters are numbered anew, as the same.
    const rows = await select.groupBy([sql`1`, sql`2`]).execute();
    return rows.map((row) => ({
      eventType: row.event_type,
      periodStartMs: query.startMs + Number(row.period_offset),
      count: Number(row.count),
    }));
  }
}
