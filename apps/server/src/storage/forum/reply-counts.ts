import { sql } from "kysely";
import type { ServerDatabase } from "../database.ts";
import type { SqlDialect } from "../sql-dialect.ts";

/**
 * Lowers by one the reply count (`descendant_count`) of a comment and of every comment above it, in the caller's
 * transaction: a reply below `commentId` was taken away. (The database counts replies as they are written, migration
 * 0019; only test control takes one away.) The chain is locked from the top of the thread down, the order the
 * database's own count uses, so the two wait for each other instead of deadlocking.
 */
export async function forgetReplyAbove(db: ServerDatabase, dialect: SqlDialect, commentId: string): Promise<void> {
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
    .set((eb) => ({ descendant_count: eb("descendant_count", "-", 1) }))
    .where(
      "comment_id",
      "in",
      locked.map((row) => row.comment_id),
    )
    .execute();
}
