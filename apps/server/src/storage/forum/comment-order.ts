import { type RawBuilder, sql } from "kysely";

/** How each group of sibling comments is ordered in a thread. */
export type CommentSort = "top" | "new" | "controversial";

/**
 * `controversial`: `(upvotes + downvotes) * min(upvotes, downvotes) / max(upvotes, downvotes)`, 0 when the votes all
 * go one way: many votes, evenly split, rank highest. Written with `case` because SQLite and PostgreSQL name the
 * two-argument minimum differently.
 */
const controversy = sql`case when upvotes = 0 or downvotes = 0 then 0.0
  else (upvotes + downvotes) * 1.0
    * (case when upvotes < downvotes then upvotes else downvotes end)
    / (case when upvotes < downvotes then downvotes else upvotes end) end`;

/**
 * The `order by` of one sibling group over `forum_comments` (unaliased), ending with the id so it is total. Each is
 * exactly the order of one index of migration 0019, so a parent's replies are read in order without sorting.
 */
export function siblingOrder(sort: CommentSort): RawBuilder<unknown> {
  switch (sort) {
    case "top":
      return sql`(upvotes - downvotes) desc, created_at, comment_id`;
    case "new":
      return sql`created_at desc, comment_id`;
    case "controversial":
      return sql`(${controversy}) desc, created_at, comment_id`;
  }
}
