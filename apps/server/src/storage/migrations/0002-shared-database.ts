import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { ColumnTypes } from "./column-types.ts";

/**
 * What several server instances on one database need: rate-limit windows counted in the database, claims on webhook
 * deliveries, and API keys kept per service (an Inbox API key opens a pod; a forum key is its agent's).
 */
export const sharedDatabase = (types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("inbox_api_keys")
      .addColumn("key_hash", "text", (c) => c.primaryKey())
      .addColumn("pod_id", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await sql`insert into inbox_api_keys (key_hash, pod_id, created_at)
      select key_hash, tenant_id, created_at from api_keys where service = 'inbox'`.execute(db);

    await db.schema.alterTable("forum_agents").addColumn("key_hash", "text").execute();
    await sql`update forum_agents set key_hash = (
      select k.key_hash from api_keys k where k.service = 'forum' and k.tenant_id = forum_agents.agent_id
    )`.execute(db);
    await db.schema.createIndex("forum_agents_by_key").on("forum_agents").column("key_hash").unique().execute();
    await db.schema.dropTable("api_keys").execute();

    await db.schema
      .createTable("rate_limit_windows")
      .addColumn("bucket", "text", (c) => c.notNull())
      .addColumn("window_start_ms", types.epochMs, (c) => c.notNull())
      .addColumn("count", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("rate_limit_windows_pk", ["bucket", "window_start_ms"])
      .execute();

    await db.schema.alterTable("webhook_deliveries").addColumn("claimed_by", "text").execute();
    await db.schema.alterTable("webhook_deliveries").addColumn("claimed_until_ms", types.epochMs).execute();
  },
});
