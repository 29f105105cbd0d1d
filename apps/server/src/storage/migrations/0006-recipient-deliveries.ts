import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Where each recipient of a sent message stands: one row per address of the sender's copy. The rows of outside
 * recipients waiting for the relay (`queued`, `delayed`) are also the outbound mail queue, claimed like webhook
 * deliveries; sends stored before have none.
 */
export const recipientDeliveries = (types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("recipient_deliveries")
      .addColumn("seq", types.serial, (c) => types.serialKey(c))
      .addColumn("pod_id", "text", (c) => c.notNull())
      .addColumn("inbox_id", "text", (c) => c.notNull())
      .addColumn("message_id", "text", (c) => c.notNull())
      .addColumn("address", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("smtp_reply", "text")
      .addColumn("attempts", "integer", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addColumn("next_attempt_at_ms", types.epochMs)
      .addColumn("claimed_by", "text")
      .addColumn("claimed_until_ms", types.epochMs)
      .execute();
    await db.schema
      .createIndex("recipient_deliveries_by_message")
      .on("recipient_deliveries")
      .columns(["inbox_id", "message_id"])
      .execute();
    await db.schema
      .createIndex("recipient_deliveries_due")
      .on("recipient_deliveries")
      .column("next_attempt_at_ms")
      .execute();
  },
});
