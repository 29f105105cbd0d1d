import type { Transaction } from "kysely";
import type { ServerDatabase } from "../database.ts";
import { PreparedInsert, PreparedQuery } from "../prepared-query.ts";
import type { DatabaseSchema } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";

/** The PostgreSQL channel on which a committed send names the pods it stored events for. */
export const EVENT_CHANNEL = "pigeonhole_events";

/** An event a send raises, as the log keeps it. */
export interface NewEvent {
  podId: string;
  inboxId: string;
  eventId: string;
  eventType: string;
  /** The JSON a webhook delivery of the event carries. */
  payload: string;
}

/** An event read back from the log. */
export interface LoggedEvent {
  seq: number;
  inboxId: string;
  eventType: string;
  payload: string;
}

/** The stored events of each pod, in the order their sends committed, kept for the live event stream. */
export interface EventLog {
  /** The position of the pod's latest event: a reader starting there gets only events stored later. */
  latestPosition(podId: string): Promise<number>;
  /** The position of one of the pod's events stored at or after `notBeforeMs`; null when it has no such event. */
  positionOf(podId: string, eventId: string, notBeforeMs: number): Promise<number | null>;
  /** Up to `limit` of the pod's events after `position`, oldest first. */
  readAfter(podId: string, position: number, limit: number): Promise<LoggedEvent[]>;
  /** Which of these inboxes belong to the pod. */
  inboxesOfPod(podId: string, inboxIds: readonly string[]): Promise<string[]>;
  /** Deletes up to `limit` events stored before `beforeMs`; answers how many went. */
  pruneOlderThan(beforeMs: number, limit: number): Promise<number>;
}

const advancePosition = new PreparedQuery((db, p: { podId: string; count: number }) =>
  db
    .insertInto("event_positions")
    .values({ pod_id: p.podId, last_seq: p.count })
    .onConflict((oc) =>
      oc.column("pod_id").doUpdateSet((eb) => ({ last_seq: eb("event_positions.last_seq", "+", p.count) })),
    )
    .returning("last_seq"),
);

const insertEvents = new PreparedInsert((db, rows: readonly (NewEvent & { podSeq: number; nowMs: number })[]) =>
  db.insertInto("events").values(
    rows.map((p) => ({
      pod_id: p.podId,
      pod_seq: p.podSeq,
      event_id: p.eventId,
      inbox_id: p.inboxId,
      event_type: p.eventType,
      payload: p.payload,
      created_at_ms: p.nowMs,
    })),
  ),
);

/**
 * Writes a send's events inside its transaction. Each pod's counter row is locked until the send commits, pods in a
 * fixed order so that two sends never wait for each other in a circle; the positions handed out are therefore in
 * commit order. On PostgreSQL the transaction also notifies every instance, which hears it once the send commits.
 */
export async function appendEvents(
  trx: Transaction<DatabaseSchema>,
  dialect: SqlDialect,
  events: readonly NewEvent[],
  nowMs: number,
): Promise<void> {
  const pods = [...new Set(events.map((event) => event.podId))].sort();
  for (const podId of pods) {
    const ofPod = events.filter((event) => event.podId === podId);
    const row = await advancePosition.first(trx, { podId, count: ofPod.length });
    if (!row) {
      throw new Error(`The event position of pod ${podId} was not stored.`);
    }
    const first = Number(row.last_seq) - ofPod.length + 1;
    await insertEvents.execute(
      trx,
      ofPod.map((event, index) => ({ ...event, podSeq: first + index, nowMs })),
    );
    await dialect.notifyOnCommit(trx, EVENT_CHANNEL, podId);
  }
}

export class SqlEventLog implements EventLog {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  async latestPosition(podId: string) {
    const row = await this.#db
      .selectFrom("event_positions")
      .select("last_seq")
      .where("pod_id", "=", podId)
      .executeTakeFirst();
    return row ? Number(row.last_seq) : 0;
  }

  async positionOf(podId: string, eventId: string, notBeforeMs: number) {
    const row = await this.#db
      .selectFrom("events")
      .select("pod_seq")
      .where("event_id", "=", eventId)
      .where("pod_id", "=", podId)
      .where("created_at_ms", ">=", notBeforeMs)
      .executeTakeFirst();
    return row ? Number(row.pod_seq) : null;
  }

  async readAfter(podId: string, position: number, limit: number) {
    const rows = await this.#db
      .selectFrom("events")
      .select(["pod_seq", "inbox_id", "event_type", "payload"])
      .where("pod_id", "=", podId)
      .where("pod_seq", ">", position)
      .orderBy("pod_seq")
      .limit(this.#dialect.rowCount(limit))
      .execute();
    return rows.map((row) => ({
      seq: Number(row.pod_seq),
      inboxId: row.inbox_id,
      eventType: row.event_type,
      payload: row.payload,
    }));
  }

  async inboxesOfPod(podId: string, inboxIds: readonly string[]) {
    const rows = await this.#db
      .selectFrom("inboxes")
      .select("inbox_id")
      .where("pod_id", "=", podId)
      .where(this.#dialect.inList("inbox_id", this.#dialect.listParam(inboxIds)))
      .execute();
    return rows.map((row) => row.inbox_id);
  }

  async pruneOlderThan(beforeMs: number, limit: number) {
    const result = await this.#db
      .deleteFrom("events")
      .where("event_id", "in", (eb) =>
        eb
          .selectFrom("events as old")
          .select("old.event_id")
          .where("old.created_at_ms", "<", beforeMs)
          .limit(this.#dialect.rowCount(limit)),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
