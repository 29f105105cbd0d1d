import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Inbox keys get a name and the visible start of the key (`prefix`), which the API lists so a pod can tell its keys
 * apart; keys registered before have neither (null). Inboxes get `metadata`, a JSON object of the caller's own
 * values (null until one is set).
 */
export const keyNamesInboxMetadata = (_types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("inbox_api_keys").addColumn("name", "text").execute();
    await db.schema.alterTable("inbox_api_keys").addColumn("prefix", "text").execute();
    await db.schema.alterTable("inboxes").addColumn("metadata", "text").execute();
  },
});
