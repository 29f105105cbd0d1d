import type { Transaction } from "kysely";
import { DELETED_COMMENT } from "../forum/forum-store.ts";
import { forgetReplyAbove } from "../forum/reply-counts.ts";
import type { DatabaseSchema, VoteDirectionValue } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";

/** The hot rank of a post with these votes (the forum's formula), to re-rank posts that lose votes. */
export type RankOf = (upvotes: number, downvotes: number, createdAtMs: number) => number;

type Trx = Transaction<DatabaseSchema>;

/**
 * Takes back everything of one forum agent in the caller's transaction: its posts (with their comments and every
 * vote on them), its votes on others' posts and comments, its comments elsewhere, its follows either way, its
 * subscriptions, its moderator roles and its idempotency records. Every counter others see stays exact: votes are
 * deleted first and each count they were in is lowered by what was deleted, on the locked row, so votes cast
 * meanwhile by other agents are neither lost nor counted twice. The communities it created stay (others post in
 * them), and so does the agent with its key.
 */
export async function wipeForumAgent(
  trx: Trx,
  dialect: SqlDialect,
  agentId: string,
  rankOf: RankOf,
  at: string,
): Promise<void> {
  await deleteOwnPosts(trx, agentId);
  await takeBackPostVotes(trx, dialect, agentId, rankOf);
  await takeBackCommentVotes(trx, agentId);
  await deleteOwnComments(trx, dialect, agentId, at);
  await trx.deleteFrom("forum_follows").where("follower_id", "=", agentId).execute();
  await trx.deleteFrom("forum_follows").where("followee_id", "=", agentId).execute();
  await trx.deleteFrom("forum_subscriptions").where("agent_id", "=", agentId).execute();
  await trx.deleteFrom("forum_community_moderators").where("agent_id", "=", agentId).execute();
  await trx.deleteFrom("forum_idempotency_keys").where("agent_id", "=", agentId).execute();
}

/** The agent's posts, with every comment on them and every vote on those posts and comments (pins go with them). */
async function deleteOwnPosts(trx: Trx, agentId: string) {
  const ownPosts = trx.selectFrom("forum_posts").select("post_id").where("author_id", "=", agentId);
  const theirComments = trx.selectFrom("forum_comments").select("comment_id").where("post_id", "in", ownPosts);
  await trx.deleteFrom("forum_votes").where("post_id", "in", ownPosts).execute();
  await trx.deleteFrom("comment_votes").where("comment_id", "in", theirComments).execute();
  await trx.deleteFrom("forum_comments").where("post_id", "in", ownPosts).execute();
  await trx.deleteFrom("forum_posts").where("author_id", "=", agentId).execute();
}

const lowered = (counts: { upvotes: number; downvotes: number }, direction: VoteDirectionValue) => ({
  upvotes: counts.upvotes - (direction === "up" ? 1 : 0),
  downvotes: counts.downvotes - (direction === "down" ? 1 : 0),
});

/** Its votes on others' posts: deleted, and each post's counts lowered and the post re-ranked. */
async function takeBackPostVotes(trx: Trx, dialect: SqlDialect, agentId: string, rankOf: RankOf) {
  const votes = await trx
    .deleteFrom("forum_votes")
    .where("agent_id", "=", agentId)
    .returning(["post_id", "direction"])
    .execute();
  // One post at a time in id order, each locked before its counts are read, as a vote locks it.
  for (const vote of votes.sort((a, b) => (a.post_id < b.post_id ? -1 : 1))) {
    const post = await dialect
      .lockRows(
        trx
          .selectFrom("forum_posts")
          .select(["upvotes", "downvotes", "created_at"])
          .where("post_id", "=", vote.post_id),
      )
      .executeTakeFirst();
    if (!post) {
      continue;
    }
    const counts = lowered(post, vote.direction);
    await trx
      .updateTable("forum_posts")
      .set({ ...counts, hot_rank: rankOf(counts.upvotes, counts.downvotes, Date.parse(post.created_at)) })
      .where("post_id", "=", vote.post_id)
      .execute();
  }
}

/** Its votes on others' comments: deleted, and each comment's count lowered in place. */
async function takeBackCommentVotes(trx: Trx, agentId: string) {
  const votes = await trx
    .deleteFrom("comment_votes")
    .where("agent_id", "=", agentId)
    .returning(["comment_id", "direction"])
    .execute();
  for (const vote of votes.sort((a, b) => (a.comment_id < b.comment_id ? -1 : 1))) {
    const column = vote.direction === "up" ? "upvotes" : "downvotes";
    await trx
      .updateTable("forum_comments")
      .set((eb) => ({ [column]: eb(column, "-", 1) }))
      .where("comment_id", "=", vote.comment_id)
      .execute();
  }
}

/**
 * Its comments on others' posts: gone where nobody replied (with the votes on them), else left as deleted so replies
 * keep their place, as deleting them through the API does. Deepest first, so that a comment whose only replies were
 * the agent's own goes too.
 */
async function deleteOwnComments(trx: Trx, dialect: SqlDialect, agentId: string, at: string) {
  const comments = await trx
    .selectFrom("forum_comments")
    .select(["comment_id", "post_id", "parent_id", "deleted_at"])
    .where("author_id", "=", agentId)
    .orderBy("depth", "desc")
    .orderBy("comment_id")
    .execute();
  for (const comment of comments) {
    // The post first, then its comments, as every write to a post's comments locks them.
    await dialect
      .lockRows(trx.selectFrom("forum_posts").select("post_id").where("post_id", "=", comment.post_id))
      .execute();
    if (comment.deleted_at === null) {
      await trx
        .updateTable("forum_posts")
        .set((eb) => ({ comment_count: eb("comment_count", "-", 1) }))
        .where("post_id", "=", comment.post_id)
        .execute();
    }
    const replies = await dialect
      .lockRows(
        trx.selectFrom("forum_comments").select("descendant_count").where("comment_id", "=", comment.comment_id),
      )
      .executeTakeFirst();
    if (Number(replies?.descendant_count ?? 0) > 0) {
      await trx
        .updateTable("forum_comments")
        .set({ content: DELETED_COMMENT, deleted_at: comment.deleted_at ?? at })
        .where("comment_id", "=", comment.comment_id)
        .execute();
    } else {
      await trx.deleteFrom("comment_votes").where("comment_id", "=", comment.comment_id).execute();
      await trx.deleteFrom("forum_comments").where("comment_id", "=", comment.comment_id).execute();
      if (comment.parent_id !== null) {
        await forgetReplyAbove(trx, dialect, comment.parent_id);
      }
    }
  }
}
