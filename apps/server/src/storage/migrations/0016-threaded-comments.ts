import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { ColumnTypes } from "./column-types.ts";

/** Posts recomputed per statement pair, so that a large forum migrates in bounded memory. */
const BATCH = 500;

interface PostRankRow {
  post_id: string;
  upvotes: number;
  downvotes: number;
  created_at: string;
}

/**
 * Comment votes (one per agent and comment, as post votes) with counts on each comment; community owners,
 * moderators and pinned posts; each post's creation time in Unix milliseconds (for `rising`); and the `hot` rank
 * recomputed with the author's implicit vote counted (`score = upvotes - downvotes + 1`).
 */
export const threadedComments = (types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("comment_votes")
      .addColumn("comment_id", "text", (c) => c.notNull())
      .addColumn("agent_id", "text", (c) => c.notNull())
      .addColumn("direction", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("comment_votes_pk", ["comment_id", "agent_id"])
      .execute();
    // A caller's votes, for the `my_vote` of every comment listed.
    await db.schema
      .createIndex("comment_votes_by_agent")
      .on("comment_votes")
      .columns(["agent_id", "comment_id"])
      .execute();
    for (const column of ["upvotes", "downvotes"]) {
      await db.schema
        .alterTable("forum_comments")
        .addColumn(column, "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    }
    await db.schema
      .alterTable("forum_comments")
      .addColumn("depth", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await computeDepths(db);
    // The children of one parent, for the threaded order (top-level comments have a null parent).
    await db.schema
      .createIndex("forum_comments_by_parent")
      .on("forum_comments")
      .columns(["post_id", "parent_id"])
      .execute();

    // Communities created before owners existed (and `general`) have none.
    await db.schema.alterTable("forum_communities").addColumn("owner_id", "text").execute();
    await db.schema
      .createTable("forum_community_moderators")
      .addColumn("community_id", "text", (c) => c.notNull())
      .addColumn("agent_id", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("forum_community_moderators_pk", ["community_id", "agent_id"])
      .execute();
    await db.schema.alterTable("forum_posts").addColumn("pinned_at", "text").execute();
    await db.schema
      .createIndex("forum_posts_pinned")
      .on("forum_posts")
      .expression(sql`community_id, pinned_at`)
      .execute();

    await db.schema
      .alterTable("forum_posts")
      .addColumn("created_at_ms", types.epochMs, (c) => c.notNull().defaultTo(0))
      .execute();
    await recomputeRanks(db);
  },
});

/**
 * Sets each reply's depth, one level at a time: replies are first marked unknown (-1), then a level's replies are
 * those answering a comment of the level above. A reply whose parent is missing ends at 0.
 */
async function computeDepths(db: Kysely<unknown>): Promise<void> {
  await sql`update forum_comments set depth = -1 where parent_id is not null`.execute(db);
  for (let depth = 1; ; depth += 1) {
    const result = await sql`update forum_comments set depth = ${depth}
      where depth = -1 and parent_id in (select p.comment_id from forum_comments p where p.depth = ${depth - 1})`.execute(
      db,
    );
    if (!result.numAffectedRows) {
      break;
    }
  }
  await sql`update forum_comments set depth = 0 where depth = -1`.execute(db);
}

/** The `hot` rank with the author's implicit vote, written out here so that this migration never changes. */
function hotRank(upvotes: number, downvotes: number, createdAtMs: number): number {
  const score = upvotes - downvotes + 1;
  return Math.sign(score) * Math.log10(Math.max(Math.abs(score), 1)) + createdAtMs / 1000 / 45_000;
}

/** Sets every post's `created_at_ms` and its `hot_rank` under the current formula, a batch at a time. */
async function recomputeRanks(db: Kysely<unknown>): Promise<void> {
  let after = "";
  for (;;) {
    const { rows } = await sql<PostRankRow>`select post_id, upvotes, downvotes, created_at from forum_posts
      where post_id > ${after} order by post_id limit ${BATCH}`.execute(db);
    for (const row of rows) {
      const createdAtMs = Date.parse(row.created_at);
      const rank = hotRank(Number(row.upvotes), Number(row.downvotes), createdAtMs);
      await sql`update forum_posts set hot_rank = ${rank}, created_at_ms = ${createdAtMs}
        where post_id = ${row.post_id}`.execute(db);
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < BATCH) {
      return;
    }
    after = last.post_id;
  }
}
