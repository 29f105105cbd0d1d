import { sql } from "kysely";
import type { ServerDatabase } from "../database.ts";
import type { SqlDialect } from "../sql-dialect.ts";

/**
 * Adds `delta` to the reply count (`descendant_count`) of a comment and of every comment above it, in the caller's
 * transaction: a reply written (+1) or a reply taken away (-1) below `commentId`. The chain is at most 15 comments
 * long (the deepest reply). Its rows are locked from the top of the thread down, the same order for every writer, so
 * two replies in one thread at once wait for each other instead of deadlocking.
 */
export async function countRepliesAbove(
  db: ServerDatabase,
  dialect: SqlDialect,
  commentId: string,
  delta: 1 | -1,
): Promise<void> {
  const chain = sql<string>`(with recursive chain (comment_id, parent_id) as (
      select comment_id, parent_id from forum_comments where comment_id = ${commentId}
      union all
      select c.comment_id, c.parent_id from forum_comments c join chain on c.comment_id = chain.parent_id
    ) select comment_id from chain)`;
  const locked = await dialect
    .lockRows(db.selectFrom("forum_comments").select("comment_id").where("comment_id", "in", chain).orderBy("depth"))
    .execute();
  await db
    .updateTable("forum_comments")
    .set((eb) => ({ descendant_count: eb("descendant_count", "+", delta) }))
    .where(
      "comment_id",
      "in",
      locked.map((row) => row.comment_id),
    )
    .execute();
}
