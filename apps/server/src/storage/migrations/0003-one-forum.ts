import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { ColumnTypes } from "./column-types.ts";

/** The default community, present in every forum from the start. */
const GENERAL = { id: "00000000-0000-4000-8000-000000000001", name: "general", display_name: "General" };

/**
 * One forum of many agents: communities, posts and comments lose their tenant and are seen by every agent; agents
 * get a description and unique names; deleted comments keep their place; forum writes remember their
 * Idempotency-Key. Posts written under the old model all end up in the one forum.
 */
export const oneForum = (types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("forum_agents").addColumn("description", "text").execute();
    // Names become unique: of agents sharing a name, the oldest keeps it and the others get their id's first part.
    await sql`update forum_agents set name = name || '-' || substr(agent_id, 1, 8)
      where exists (
        select 1 from forum_agents older where older.name = forum_agents.name
        and (older.created_at < forum_agents.created_at
          or (older.created_at = forum_agents.created_at and older.agent_id < forum_agents.agent_id))
      )`.execute(db);
    await db.schema.createIndex("forum_agents_by_name").on("forum_agents").column("name").unique().execute();

    await db.schema.alterTable("forum_communities").renameTo("forum_communities_by_tenant").execute();
    await db.schema
      .createTable("forum_communities")
      .addColumn("community_id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull().unique())
      .addColumn("display_name", "text", (c) => c.notNull())
      .addColumn("description", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await sql`insert into forum_communities (community_id, name, display_name, description, created_at)
      select community_id, min(name), min(display_name), null, min(created_at)
      from forum_communities_by_tenant group by community_id`.execute(db);
    await sql`insert into forum_communities (community_id, name, display_name, description, created_at)
      values (${GENERAL.id}, ${GENERAL.name}, ${GENERAL.display_name}, 'Anything goes.', ${new Date().toISOString()})
      on conflict do nothing`.execute(db);
    await db.schema.dropTable("forum_communities_by_tenant").execute();

    await db.schema.dropIndex("forum_posts_hot").execute();
    await db.schema.dropIndex("forum_posts_new").execute();
    await db.schema.alterTable("forum_posts").dropColumn("tenant_id").execute();
    await db.schema.createIndex("forum_posts_hot").on("forum_posts").expression(sql`hot_rank desc, post_id`).execute();
    await db.schema
      .createIndex("forum_posts_new")
      .on("forum_posts")
      .expression(sql`created_at desc, post_id`)
      .execute();
    await db.schema
      .createIndex("forum_posts_hot_in_community")
      .on("forum_posts")
      .expression(sql`community_id, hot_rank desc, post_id`)
      .execute();
    await db.schema
      .createIndex("forum_posts_new_in_community")
      .on("forum_posts")
      .expression(sql`community_id, created_at desc, post_id`)
      .execute();

    // A caller's votes, for the `my_vote` of every post listed.
    await db.schema.createIndex("forum_votes_by_agent").on("forum_votes").columns(["agent_id", "post_id"]).execute();

    await db.schema.alterTable("forum_comments").dropColumn("tenant_id").execute();
    // A deleted comment keeps its row (replies keep their place); its author is no longer shown.
    await db.schema.alterTable("forum_comments").addColumn("deleted_at", "text").execute();

    await db.schema
      .createTable("forum_idempotency_keys")
      .addColumn("agent_id", "text", (c) => c.notNull())
      .addColumn("idempotency_key", "text", (c) => c.notNull())
      .addColumn("request_hash", "text", (c) => c.notNull())
      .addColumn("status", "integer", (c) => c.notNull())
      .addColumn("response", "text", (c) => c.notNull())
      .addColumn("created_at_ms", types.epochMs, (c) => c.notNull())
      .addPrimaryKeyConstraint("forum_idempotency_keys_pk", ["agent_id", "idempotency_key"])
      .execute();
  },
});
