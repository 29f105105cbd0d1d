import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import { randomBase62 } from "../../ids.ts";
import type { ColumnTypes } from "./column-types.ts";

/**
 * The webhook delivery log: each delivery gets a public id and the time it last changed, and every attempt is kept
 * (when, the answer's status, the error, the latency) for as long as its delivery. Deliveries made before kept no
 * attempts, so they list none; they last changed when they finished, or else when they were queued.
 */
export const deliveryAttempts = (types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("webhook_deliveries").addColumn("delivery_id", "text").execute();
    await db.schema.alterTable("webhook_deliveries").addColumn("updated_at", "text").execute();
    await sql`update webhook_deliveries set updated_at = coalesce(finished_at, created_at)`.execute(db);
    const rows = await sql<{ seq: number }>`select seq from webhook_deliveries`.execute(db);
    for (const { seq } of rows.rows) {
      await sql`update webhook_deliveries set delivery_id = ${`dlv_${randomBase62(16)}`} where seq = ${seq}`.execute(
        db,
      );
    }
    await db.schema
      .createIndex("webhook_deliveries_by_delivery_id")
      .unique()
      .on("webhook_deliveries")
      .column("delivery_id")
      .execute();
    // A webhook's log, newest first.
    await db.schema
      .createIndex("webhook_deliveries_by_webhook")
      .on("webhook_deliveries")
      .columns(["webhook_id", "created_at", "seq"])
      .execute();

    await db.schema
      .createTable("webhook_delivery_attempts")
      .addColumn("seq", types.serial, (c) => types.serialKey(c))
      // The attempts go with their delivery, whoever deletes it.
      .addColumn("delivery_seq", "integer", (c) => c.notNull().references("webhook_deliveries.seq").onDelete("cascade"))
      .addColumn("attempted_at", "text", (c) => c.notNull())
      .addColumn("status_code", "integer")
      .addColumn("error", "text")
      .addColumn("latency_ms", "integer", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("webhook_delivery_attempts_by_delivery")
      .on("webhook_delivery_attempts")
      .columns(["delivery_seq", "seq"])
      .execute();
  },
});
