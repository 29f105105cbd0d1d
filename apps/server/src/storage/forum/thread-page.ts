import { type RawBuilder, sql } from "kysely";
import type { ServerDatabase } from "../database.ts";
import type { SqlDialect } from "../sql-dialect.ts";

/**
 * A stretch of the threaded order below one parent (null: the post's top level): skip `skip` comments of its
 * replies' threads, then take `take`.
 */
interface Stretch {
  parentId: string | null;
  skip: number;
  take: number;
}

/** A reply read in its place, with the number of comments its thread holds (itself and every reply below it). */
interface Reply {
  comment_id: string;
  size: number;
  /** Where its thread starts among the parent's replies' threads (0 for the first reply). */
  start: number;
}

/** A comment a page reaches, and whether the page shows it (or only replies below it). */
interface Reached {
  id: string;
  shown: boolean;
}

/** Replies read at once while stepping over earlier threads; each read doubles it up to the largest. */
const FIRST_READ = 64;
const LARGEST_READ = 16_384;

/**
 * The ids of one page of a post's comments in threaded order: depth first, each sibling group in `order`.
 *
 * Every comment knows how many replies lie below it, so a page steps over a whole thread by its count and descends
 * only into the threads the page overlaps. Replies are read through the index of their order; no comment outside the
 * page is read, except the siblings stepped over to reach it (work that grows with `offset`, as any offset paging
 * does) and at most 15 levels of them on the way down. Call inside a read snapshot so the counts agree.
 */
export async function threadPageIds(
  db: ServerDatabase,
  dialect: SqlDialect,
  postId: string,
  order: RawBuilder<unknown>,
  page: { offset: number; limit: number },
): Promise<string[]> {
  const reached = new Map<string | null, Reached[]>();
  let stretches: Stretch[] = [{ parentId: null, skip: page.offset, take: page.limit }];
  while (stretches.length > 0) {
    const below: Stretch[] = [];
    const level = await repliesOfLevel(db, dialect, postId, order, stretches);
    for (const [i, stretch] of stretches.entries()) {
      const replies = level[i] ?? [];
      reached.set(
        stretch.parentId,
        replies.map((reply) => {
          // The part of this reply's thread inside the stretch, counted from the reply itself (0).
          const from = Math.max(stretch.skip - reply.start, 0);
          const to = Math.min(stretch.skip + stretch.take - reply.start, reply.size);
          if (to > 1) {
            below.push({ parentId: reply.comment_id, skip: Math.max(from - 1, 0), take: to - Math.max(from, 1) });
          }
          return { id: reply.comment_id, shown: from === 0 };
        }),
      );
    }
    stretches = below;
  }
  const ids: string[] = [];
  const visit = (parentId: string | null) => {
    for (const comment of reached.get(parentId) ?? []) {
      if (comment.shown) {
        ids.push(comment.id);
      }
      visit(comment.id);
    }
  };
  visit(null);
  return ids;
}

/**
 * The replies overlapping each stretch of one level of the page, in order. A stretch that skips nothing needs at most
 * `take` replies, the first in its order; those of every such stretch are read in one statement. At most one stretch
 * of a level skips (the page's first), and it steps over the threads before it in reads of its own.
 */
async function repliesOfLevel(
  db: ServerDatabase,
  dialect: SqlDialect,
  postId: string,
  order: RawBuilder<unknown>,
  stretches: readonly Stretch[],
): Promise<Reply[][]> {
  const found: Reply[][] = stretches.map(() => []);
  const fromStart = [...stretches.keys()].filter((i) => stretches[i]?.skip === 0);
  for (const [i, stretch] of stretches.entries()) {
    if (stretch.skip > 0) {
      found[i] = await repliesIn(db, dialect, postId, order, stretch);
    }
  }
  if (fromStart.length === 0) {
    return found;
  }
  // Each branch numbers its rows in the order, since a union keeps no order of its own.
  const branches = fromStart.map(
    (i) => sql`select * from (select comment_id, descendant_count, ${sql.lit(i)} as stretch,
        row_number() over (order by ${order}) as place
      from forum_comments where post_id = ${postId} and coalesce(parent_id, '') = ${stretches[i]?.parentId ?? ""}
      order by ${order} limit ${sql.lit(stretches[i]?.take ?? 0)}) as ${sql.id(`s${i}`)}`,
  );
  const { rows } = await sql<{
    comment_id: string;
    descendant_count: number;
    stretch: number;
    place: number;
  }>`${sql.join(branches, sql` union all `)}`.execute(db);
  const ordered = rows.toSorted((a, b) => Number(a.stretch) - Number(b.stretch) || Number(a.place) - Number(b.place));
  const starts = new Map<number, number>();
  for (const row of ordered) {
    const i = Number(row.stretch);
    const start = starts.get(i) ?? 0;
    const take = stretches[i]?.take ?? 0;
    if (start < take) {
      const size = Number(row.descendant_count) + 1;
      found[i]?.push({ comment_id: row.comment_id, size, start });
      starts.set(i, start + size);
    }
  }
  return found;
}

/** The parent's replies whose threads overlap the stretch, in order. */
async function repliesIn(
  db: ServerDatabase,
  dialect: SqlDialect,
  postId: string,
  order: RawBuilder<unknown>,
  stretch: Stretch,
): Promise<Reply[]> {
  const end = stretch.skip + stretch.take;
  const overlapping: Reply[] = [];
  let start = 0;
  let read = 0;
  let batch = Math.max(stretch.take, FIRST_READ);
  for (;;) {
    const rows = await db
      .selectFrom("forum_comments")
      .select(["comment_id", "descendant_count"])
      .where("post_id", "=", postId)
      // As the indexes of migration 0019 write it: a top-level comment's parent is ''.
      .where(sql`coalesce(parent_id, '')`, "=", stretch.parentId ?? "")
      .orderBy(order)
      .limit(dialect.rowCount(batch))
      .offset(dialect.rowCount(read))
      .execute();
    for (const row of rows) {
      const size = Number(row.descendant_count) + 1;
      if (start + size > stretch.skip) {
        overlapping.push({ comment_id: row.comment_id, size, start });
      }
      start += size;
      if (start >= end) {
        return overlapping;
      }
    }
    if (rows.length < batch) {
      return overlapping;
    }
    read += rows.length;
    batch = Math.min(batch * 2, LARGEST_READ);
  }
}
