import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Whether a message's stored source holds a Bcc field that only the sender's copy may show. A source this server
 * composed for a send with Bcc recipients does; mail received over SMTP is kept exactly as it arrived, and its copies
 * show it so, Bcc field or not. Sources stored before were all treated as composed, so they keep that reading.
 */
export const sourceBcc = (_types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("message_sources")
      .addColumn("holds_bcc", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update message_sources set holds_bcc = 1`.execute(db);
  },
});
