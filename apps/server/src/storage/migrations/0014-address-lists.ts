import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Allow and block lists of addresses and domains, for sending and receiving: a pod's own (`inbox_id` empty) and each
 * inbox's. The empty string rather than null marks a pod-wide entry, so that one unique index covers both scopes on
 * both databases (null never collides in a unique index).
 */
export const addressLists = (_types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("address_list_entries")
      .addColumn("pod_id", "text", (c) => c.notNull())
      .addColumn("inbox_id", "text", (c) => c.notNull())
      .addColumn("direction", "text", (c) => c.notNull())
      .addColumn("list_type", "text", (c) => c.notNull())
      .addColumn("entry", "text", (c) => c.notNull())
      .addColumn("entry_type", "text", (c) => c.notNull())
      .addColumn("reason", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("address_list_entries_by_scope")
      .unique()
      .on("address_list_entries")
      .columns(["pod_id", "inbox_id", "direction", "list_type", "entry"])
      .execute();
  },
});
