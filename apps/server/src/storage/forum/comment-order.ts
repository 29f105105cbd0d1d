import { type RawBuilder, sql } from "kysely";

/** How each group of sibling comments is ordered in a thread. */
export type CommentSort = "top" | "new" | "controversial";

/**
 * `controversial`: `(upvotes + downvotes) * min(upvotes, downvotes) / max(upvotes, downvotes)`, 0 when the votes all
 * go one way: many votes, evenly split, rank highest. Written with `case` because SQLite and PostgreSQL name the
 * two-argument minimum differently.
 */
const controversy = sql`case when m.upvotes = 0 or m.downvotes = 0 then 0.0
  else (m.upvotes + m.downvotes) * 1.0
    * (case when m.upvotes < m.downvotes then m.upvotes else m.downvotes end)
    / (case when m.upvotes < m.downvotes then m.downvotes else m.upvotes end) end`;

/** The `order by` of one sibling group (columns of `forum_comments as m`), ending with the id so it is total. */
export function siblingOrder(sort: CommentSort): RawBuilder<unknown> {
  switch (sort) {
    case "top":
      return sql`m.upvotes - m.downvotes desc, m.created_at asc, m.comment_id asc`;
    case "new":
      return sql`m.created_at desc, m.comment_id asc`;
    case "controversial":
      return sql`${controversy} desc, m.created_at asc, m.comment_id asc`;
  }
}

/**
 * A comment's place among its siblings as a fixed-width text (position + 1,000,000: seven digits for up to 8,999,999
 * siblings). A thread's sort key is the concatenation of these from its top-level comment down, so sorting by it
 * puts every reply right after its parent and its parent's earlier replies.
 */
export const POSITION_BASE = 1_000_000;
