import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { ColumnTypes } from "./column-types.ts";

/**
 * The event log behind the live event stream: every event a send raises, numbered per pod in the order the sends
 * commit, and the per-pod counter that hands out those numbers (its row is locked by each send of the pod until it
 * commits, which is what makes the numbers follow commit order on every database).
 */
export const eventLog = (types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("events")
      .addColumn("pod_id", "text", (c) => c.notNull())
      .addColumn("pod_seq", types.epochMs, (c) => c.notNull())
      .addColumn("event_id", "text", (c) => c.notNull().unique())
      .addColumn("inbox_id", "text", (c) => c.notNull())
      .addColumn("event_type", "text", (c) => c.notNull())
      .addColumn("payload", "text", (c) => c.notNull())
      .addColumn("created_at_ms", types.epochMs, (c) => c.notNull())
      .addPrimaryKeyConstraint("events_pk", ["pod_id", "pod_seq"])
      .execute();
    await db.schema.createIndex("events_by_inbox").on("events").column("inbox_id").execute();
    await db.schema.createIndex("events_by_age").on("events").column("created_at_ms").execute();
    await db.schema
      .createTable("event_positions")
      .addColumn("pod_id", "text", (c) => c.primaryKey())
      .addColumn("last_seq", types.epochMs, (c) => c.notNull())
      .execute();
  },
});
