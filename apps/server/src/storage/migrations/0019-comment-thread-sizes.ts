import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * Bounded pages of a post's comments. Each comment counts the replies below it at any depth (`descendant_count`),
 * and one index per sibling order (`top`, `new`, `controversial`, as comment-order.ts writes them) lists a parent's
 * replies in that order with their counts. A page then reads its comments through the indexes and steps over whole
 * threads before it by their counts, instead of ordering every comment of the post. A top-level comment's parent is
 * indexed as '' rather than null, because PostgreSQL reads an index in order after an equality but not after
 * `is null`. The indexes replace `forum_comments_by_parent`, which they begin like.
 */
export const commentThreadSizes = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("forum_comments")
      .addColumn("descendant_count", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await countDescendants(db);
    const indexes = {
      forum_comments_top: sql`post_id, coalesce(parent_id, ''), (upvotes - downvotes) desc, created_at, comment_id, descendant_count`,
      forum_comments_newest: sql`post_id, coalesce(parent_id, ''), created_at desc, comment_id, descendant_count`,
      forum_comments_controversial: sql`post_id, coalesce(parent_id, ''), (case when upvotes = 0 or downvotes = 0 then 0.0
        else (upvotes + downvotes) * 1.0
          * (case when upvotes < downvotes then upvotes else downvotes end)
          / (case when upvotes < downvotes then downvotes else upvotes end) end) desc,
        created_at, comment_id, descendant_count`,
    };
    for (const [name, columns] of Object.entries(indexes)) {
      await db.schema.createIndex(name).on("forum_comments").expression(columns).execute();
    }
    await db.schema.dropIndex("forum_comments_by_parent").execute();
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
