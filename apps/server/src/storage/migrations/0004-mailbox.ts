import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Working an inbox: each sent message's RFC 5322 source, kept once per message id like its attachments; a message id
 * index, so that what a deleted inbox leaves behind is found at once; and the inbox each webhook delivery concerns,
 * so that deleting an inbox takes its deliveries along. Deliveries stored before are given theirs from the event.
 */
export const mailbox = (types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("message_sources")
      .addColumn("message_id", "text", (c) => c.primaryKey())
      .addColumn("source", types.bytes, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("messages_by_message_id").on("messages").column("message_id").execute();

    await db.schema.alterTable("webhook_deliveries").addColumn("inbox_id", "text").execute();
    const rows = await sql<{ seq: number; payload: string }>`select seq, payload from webhook_deliveries`.execute(db);
    for (const { seq, payload } of rows.rows) {
      const event = JSON.parse(payload) as { message?: { inbox_id?: string }; send?: { inbox_id?: string } };
      const inboxId = event.message?.inbox_id ?? event.send?.inbox_id ?? null;
      await sql`update webhook_deliveries set inbox_id = ${inboxId} where seq = ${seq}`.execute(db);
    }
    await db.schema.createIndex("webhook_deliveries_by_inbox").on("webhook_deliveries").column("inbox_id").execute();
  },
});
