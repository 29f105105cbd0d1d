import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { ColumnTypes } from "./column-types.ts";
import { postgresColumnTypes } from "./column-types.ts";

/**
 * Bounded pages of a post's comments. Each comment counts the replies below it at any depth (`descendant_count`),
 * and one index per sibling order (`top`, `new`, `controversial`, as comment-order.ts writes them) lists a parent's
 * replies in that order with their counts. A page then reads its comments through the indexes and steps over whole
 * threads before it by their counts, instead of ordering every comment of the post.
 *
 * The database counts each reply as it is stored (a trigger), whoever stores it: an instance of the previous version
 * still running beside upgraded ones keeps the counts right too. A top-level comment's parent is indexed as '' rather
 * than null, because PostgreSQL reads an index in order after an equality but not after `is null`.
 */
export const commentThreadSizes = (types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("forum_comments")
      .addColumn("descendant_count", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await countDescendants(db);
    await (types === postgresColumnTypes ? countRepliesInPostgres(db) : countRepliesInSqlite(db));
    // SQLite reads the counts from the indexes alone. PostgreSQL reads them from the row: a count in an index would
    // make every reply's count updates write new index entries (no heap-only update), bloating the indexes of a
    // busy thread until vacuum.
    const counts = types === postgresColumnTypes ? sql`` : sql`, descendant_count`;
    const indexes = {
      forum_comments_top: sql`post_id, coalesce(parent_id, ''), (upvotes - downvotes) desc, created_at, comment_id${counts}`,
      forum_comments_newest: sql`post_id, coalesce(parent_id, ''), created_at desc, comment_id${counts}`,
      forum_comments_controversial: sql`post_id, coalesce(parent_id, ''), (case when upvotes = 0 or downvotes = 0 then 0.0
        else (upvotes + downvotes) * 1.0
          * (case when upvotes < downvotes then upvotes else downvotes end)
          / (case when upvotes < downvotes then downvotes else upvotes end) end) desc,
        created_at, comment_id${counts}`,
    };
    for (const [name, columns] of Object.entries(indexes)) {
      await db.schema.createIndex(name).on("forum_comments").expression(columns).execute();
    }
  },
});

/**
 * Sets every comment's count one level at a time, deepest first, so that each level adds up the finished counts of
 * the level below: a comment holds its replies plus all of theirs.
 */
async function countDescendants(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ deepest: number | null }>`select max(depth) as deepest from forum_comments`.execute(db);
  for (let depth = Number(rows[0]?.deepest ?? -1); depth >= 0; depth -= 1) {
    await sql`update forum_comments set descendant_count = coalesce((select sum(r.descendant_count + 1)
        from forum_comments r where r.post_id = forum_comments.post_id and r.parent_id = forum_comments.comment_id), 0)
      where depth = ${depth}`.execute(db);
  }
}

/** The comments above a new reply: its parent, the parent's parent, up to the top of the thread. */
const chainAbove = (parentId: ReturnType<typeof sql.raw>) => sql`(with recursive chain (comment_id, parent_id) as (
    select comment_id, parent_id from forum_comments where comment_id = ${parentId}
    union all
    select c.comment_id, c.parent_id from forum_comments c join chain on c.comment_id = chain.parent_id
  ) select comment_id from chain)`;

async function countRepliesInSqlite(db: Kysely<unknown>) {
  await sql`create trigger forum_comments_count_reply after insert on forum_comments when new.parent_id is not null
    begin
      update forum_comments set descendant_count = descendant_count + 1
      where comment_id in ${chainAbove(sql.raw("new.parent_id"))};
    end`.execute(db);
}

/**
 * The chain is locked from the top of the thread down before it is counted, the same order for every writer, so two
 * replies in one thread at once wait for each other instead of deadlocking.
 */
async function countRepliesInPostgres(db: Kysely<unknown>) {
  await sql`create function pigeonhole_count_reply() returns trigger language plpgsql as $$
    begin
      perform 1 from forum_comments where comment_id in ${chainAbove(sql.raw("new.parent_id"))}
        order by depth for update;
      update forum_comments set descendant_count = descendant_count + 1
        where comment_id in ${chainAbove(sql.raw("new.parent_id"))};
      return null;
    end $$`.execute(db);
  await sql`create trigger forum_comments_count_reply after insert on forum_comments
    for each row when (new.parent_id is not null) execute function pigeonhole_count_reply()`.execute(db);
}
