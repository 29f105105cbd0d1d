import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import { sha256Hex } from "../../ids.ts";
import type { ColumnTypes } from "./column-types.ts";

/** The development keys every server before this one registered by default. */
const DEFAULT_DEV_KEYS = ["pigeonhole-inbox-dev", "pigeonhole-forum-dev"];

/**
 * Keys get a public id (`key_` and the first 16 hex digits of their hash, as `keyIdOf` computes it), so that they can
 * be listed and revoked without showing them, and a mark of development keys, so that a server started without them
 * removes them. Keys registered before carry no mark: those with the well-known default values are marked here; a
 * development key with another value is marked when a server registers it again.
 */
export const keyRecords = (_types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    const devHashes = DEFAULT_DEV_KEYS.map((key) => sha256Hex(key));
    for (const table of ["inbox_api_keys", "forum_agents"]) {
      await db.schema.alterTable(table).addColumn("key_id", "text").execute();
      await db.schema
        .alterTable(table)
        .addColumn("dev_key", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`update ${sql.table(table)} set key_id = 'key_' || substr(key_hash, 1, 16) where key_hash is not null`.execute(
        db,
      );
      await sql`update ${sql.table(table)} set dev_key = 1 where key_hash in (${sql.join(devHashes)})`.execute(db);
      await db.schema.createIndex(`${table}_by_key_id`).unique().on(table).column("key_id").execute();
    }
  },
});
