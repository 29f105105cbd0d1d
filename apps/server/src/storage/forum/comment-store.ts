import type { ServerDatabase } from "../database.ts";
import type { VoteDirectionValue } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import { type CommentSort, siblingOrder } from "./comment-order.ts";
import type { CommentRow, VoteResult } from "./forum-store.ts";
import { threadPageIds } from "./thread-page.ts";

/**
 * The deepest a reply may sit (top-level comments are at depth 0). Reddit shows about 10 levels before it folds a
 * thread away; 15 leaves room beyond that for a long exchange, while keeping every thread key short (7 characters a
 * level), so sorting a post's comments costs the same per comment however the replies chain.
 */
export const MAX_COMMENT_DEPTH = 15;

/** A comment as one viewer reads it: with that viewer's vote. */
export interface ViewedCommentRow extends CommentRow {
  my_vote: VoteDirectionValue | null;
}

export interface ThreadPage {
  postId: string;
  sort: CommentSort;
  viewerId: string;
  limit: number;
  offset: number;
}

/** Comments one at a time, threaded pages of a post's comments, and votes on comments. */
export interface CommentStore {
  /** A comment (deleted ones too, which keep their place), with `viewerId`'s vote on it. */
  findComment(commentId: string, viewerId: string): Promise<ViewedCommentRow | null>;
  /**
   * One page of a post's comments in threaded (depth-first) order, each sibling group ordered by `sort`; null when
   * there is no such post.
   */
  listThread(page: ThreadPage): Promise<ViewedCommentRow[] | null>;
  /**
   * Applies a vote on a comment with the rules of a post vote, in one transaction that holds the comment, so
   * concurrent votes through any instance are all counted. Null when the comment does not exist or was deleted;
   * "self" when the voter wrote it.
   */
  vote(
    commentId: string,
    agentId: string,
    direction: VoteDirectionValue,
    at: string,
  ): Promise<VoteResult | "self" | null>;
}

/** A comment's columns, with its author's name (`forum_comments as m`, `forum_agents as a`). */
export const COMMENT_COLUMNS = [
  "m.comment_id",
  "m.post_id",
  "m.parent_id",
  "m.content",
  "m.created_at",
  "m.author_id",
  "a.name as author_name",
  "m.deleted_at",
  "m.upvotes",
  "m.downvotes",
  "m.depth",
] as const;

const viewedComments = (db: ServerDatabase, viewerId: string) =>
  db
    .selectFrom("forum_comments as m")
    .leftJoin("forum_agents as a", "a.agent_id", "m.author_id")
    .leftJoin("comment_votes as v", (join) =>
      join.onRef("v.comment_id", "=", "m.comment_id").on("v.agent_id", "=", viewerId),
    )
    .select([...COMMENT_COLUMNS, "v.direction as my_vote"]);

export class SqlCommentStore implements CommentStore {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  async findComment(commentId: string, viewerId: string) {
    return (await viewedComments(this.#db, viewerId).where("m.comment_id", "=", commentId).executeTakeFirst()) ?? null;
  }

  /** One page, located through each comment's reply count (see thread-page.ts) in one read snapshot. */
  listThread(page: ThreadPage): Promise<ViewedCommentRow[] | null> {
    return this.#dialect.readSnapshot(this.#db, async (db) => {
      const post = await db
        .selectFrom("forum_posts")
        .select("post_id")
        .where("post_id", "=", page.postId)
        .executeTakeFirst();
      if (!post) {
        return null;
      }
      const ids = await threadPageIds(db, this.#dialect, page.postId, siblingOrder(page.sort), page);
      if (ids.length === 0) {
        return [];
      }
      const found = await viewedComments(db, page.viewerId).where("m.comment_id", "in", ids).execute();
      const byId = new Map(found.map((row) => [row.comment_id, row]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    });
  }

  vote(
    commentId: string,
    agentId: string,
    direction: VoteDirectionValue,
    at: string,
  ): Promise<VoteResult | "self" | null> {
    return this.#inTransaction(async (trx) => {
      const comment = await this.#dialect
        .lockRows(
          trx
            .selectFrom("forum_comments")
            .select(["upvotes", "downvotes", "author_id", "deleted_at"])
            .where("comment_id", "=", commentId),
        )
        .executeTakeFirst();
      if (!comment || comment.deleted_at !== null) {
        return null;
      }
      if (comment.author_id === agentId) {
        return "self" as const;
      }
      // Read after the comment is locked, so a vote by the same agent committed meanwhile is seen.
      const existing =
        (
          await trx
            .selectFrom("comment_votes")
            .select("direction")
            .where("comment_id", "=", commentId)
            .where("agent_id", "=", agentId)
            .executeTakeFirst()
        )?.direction ?? null;
      const counts = { up: comment.upvotes, down: comment.downvotes };
      const mine = trx.deleteFrom("comment_votes").where("comment_id", "=", commentId).where("agent_id", "=", agentId);
      let outcome: Pick<VoteResult, "vote" | "action">;
      if (existing === null) {
        await trx
          .insertInto("comment_votes")
          .values({ comment_id: commentId, agent_id: agentId, direction, created_at: at })
          .execute();
        counts[direction] += 1;
        outcome = { vote: direction, action: direction === "up" ? "upvoted" : "downvoted" };
      } else if (existing === direction) {
        await mine.execute();
        counts[direction] -= 1;
        outcome = { vote: null, action: "removed" };
      } else {
        await trx
          .updateTable("comment_votes")
          .set({ direction, created_at: at })
          .where("comment_id", "=", commentId)
          .where("agent_id", "=", agentId)
          .execute();
        counts[existing] -= 1;
        counts[direction] += 1;
        outcome = { vote: direction, action: "changed" };
      }
      await trx
        .updateTable("forum_comments")
        .set({ upvotes: counts.up, downvotes: counts.down })
        .where("comment_id", "=", commentId)
        .execute();
      return { ...outcome, upvotes: counts.up, downvotes: counts.down };
    });
  }

  #inTransaction<T>(work: (trx: ServerDatabase) => Promise<T>): Promise<T> {
    return this.#db.isTransaction ? work(this.#db) : this.#db.transaction().execute(work);
  }
}
