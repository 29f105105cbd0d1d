import { sql } from "kysely";
import type { ServerDatabase } from "../database.ts";
import { PreparedQuery, preparedVariants } from "../prepared-query.ts";
import type { VoteDirectionValue } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import { perDialect } from "../sql-dialect.ts";
import { COMMENT_COLUMNS, MAX_COMMENT_DEPTH } from "./comment-store.ts";
import { type ModerationStore, SqlModerationStore } from "./moderation-store.ts";

export type PostSort = "hot" | "new" | "top" | "rising";

export interface NewPost {
  postId: string;
  communityId: string;
  authorId: string;
  title: string;
  content: string;
  url: string | null;
  hotRank: number;
  createdAt: string;
}

export interface NewComment {
  commentId: string;
  postId: string;
  parentId: string | null;
  authorId: string;
  content: string;
  createdAt: string;
}

export interface NewCommunity {
  communityId: string;
  /** The agent creating it, which owns it. */
  ownerId: string;
  name: string;
  displayName: string;
  description: string | null;
  createdAt: string;
}

/** A post with its author's and community's names (null when either is gone) and the viewer's vote. */
export interface PostRow {
  post_id: string;
  title: string;
  content: string;
  url: string | null;
  upvotes: number;
  downvotes: number;
  comment_count: number;
  created_at: string;
  author_id: string;
  author_name: string | null;
  community_id: string;
  community_name: string | null;
  community_display_name: string | null;
  my_vote: VoteDirectionValue | null;
  /** When an owner or moderator pinned it to its community; null when not pinned. */
  pinned_at: string | null;
}

/** A comment with its author's name; `deleted_at` is set once its author deleted it. */
export interface CommentRow {
  comment_id: string;
  post_id: string;
  parent_id: string | null;
  content: string;
  created_at: string;
  author_id: string;
  author_name: string | null;
  deleted_at: string | null;
  upvotes: number;
  downvotes: number;
  /** 0 at top level, the parent's depth plus 1 for a reply. */
  depth: number;
}

export interface CommunityRow {
  community_id: string;
  name: string;
  display_name: string;
  description: string | null;
  created_at: string;
  /** The agents subscribed to it, counted as it is read (absent on a community just created: none). */
  subscriber_count?: number;
}

export interface AgentRow {
  agent_id: string;
  name: string;
  description: string | null;
  created_at: string;
}

export interface PostListing {
  sort: PostSort;
  /** Only posts of the community with this name (none when there is no such community), its pinned ones first. */
  communityName: string | null;
  /** `top` and `rising`: only posts created at or after this time (ISO 8601); absent or null for all. */
  createdSince?: string | null;
  /** `rising`: the time its ages are counted to, in Unix milliseconds (the request's). */
  nowMs?: number;
  limit: number;
  offset: number;
}

export type CreateCommentResult = { created: CommentRow } | { missing: "post" | "parent" } | { tooDeep: true };
export type CreateCommunityResult = { created: CommunityRow } | { nameTaken: true };
/** The outcome of deleting one's own content. */
export type DeleteResult = "deleted" | "forbidden" | "missing";

/** An answer as a forum write gave it, replayed for a repeated Idempotency-Key. */
export interface StoredAnswer {
  status: number;
  body: string;
}

export interface IdempotentWrite {
  agentId: string;
  key: string;
  /** Tells a repeat of the same request from another request under the same key. */
  requestHash: string;
  nowMs: number;
  /** Records older than this have expired and are taken over. */
  notBeforeMs: number;
}

export type IdempotentWriteResult = { answer: StoredAnswer } | { keyReused: true };

export interface VoteResult {
  vote: VoteDirectionValue | null;
  action: "upvoted" | "downvoted" | "removed" | "changed";
  upvotes: number;
  downvotes: number;
}

/** The one forum: its agents, communities, posts, comments and votes. */
export interface ForumStore {
  /**
   * Runs a write under an Idempotency-Key, in one transaction with the key's record: the first request under the key
   * writes and its answer is kept; a repeat of the same request gets that answer and writes nothing; another request
   * under the key is refused. Concurrent repeats on any instance wait for the first to commit.
   */
  idempotentWrite(
    write: IdempotentWrite,
    run: (forum: ForumStore, moderation: ModerationStore) => Promise<StoredAnswer>,
  ): Promise<IdempotentWriteResult>;
  findAgent(agentId: string): Promise<AgentRow | null>;
  listCommunities(limit: number, offset: number): Promise<CommunityRow[]>;
  createCommunity(community: NewCommunity): Promise<CreateCommunityResult>;
  findCommunityByName(name: string): Promise<CommunityRow | null>;
  findCommunity(communityId: string): Promise<CommunityRow | null>;
  createPost(post: NewPost): Promise<PostRow>;
  /** A post, with `viewerId`'s vote on it. */
  findPost(postId: string, viewerId: string): Promise<PostRow | null>;
  /** Up to `limit` posts after skipping `offset`, ordered by `sort`, ties by id, with `viewerId`'s votes. */
  listPosts(listing: PostListing, viewerId: string): Promise<PostRow[]>;
  /** Deletes an agent's own post with its comments and votes. */
  deletePost(postId: string, agentId: string): Promise<DeleteResult>;
  /**
   * Adds a comment and counts it on its post, in one transaction; a reply to a comment at {@link MAX_COMMENT_DEPTH}
   * is refused.
   */
  createComment(comment: NewComment): Promise<CreateCommentResult>;
  /** Marks an agent's own comment deleted (it keeps its place) and stops counting it on its post; a comment deleted before is missing. */
  deleteComment(commentId: string, agentId: string, at: string): Promise<DeleteResult>;
  /**
   * Applies a vote (first vote, same direction again to remove, other direction to flip) and updates the post's
   * counts and rank, in one transaction that holds the post, so votes through any instance are all counted. Null when
   * the post does not exist; "self" when the voter wrote it.
   */
  vote(
    postId: string,
    agentId: string,
    direction: VoteDirectionValue,
    at: string,
    rankOf: (upvotes: number, downvotes: number, createdAt: string) => number,
  ): Promise<VoteResult | "self" | null>;
}

/** Posts with their author's name, their community, and the viewer's vote. */
export const selectPosts = (db: ServerDatabase, viewerId: string) =>
  db
    .selectFrom("forum_posts as p")
    .leftJoin("forum_agents as a", "a.agent_id", "p.author_id")
    .leftJoin("forum_communities as c", "c.community_id", "p.community_id")
    .leftJoin("forum_votes as v", (join) => join.onRef("v.post_id", "=", "p.post_id").on("v.agent_id", "=", viewerId))
    .select([
      "p.post_id",
      "p.title",
      "p.content",
      "p.url",
      "p.upvotes",
      "p.downvotes",
      "p.comment_count",
      "p.created_at",
      "p.author_id",
      "a.name as author_name",
      "p.community_id",
      "c.name as community_name",
      "c.display_name as community_display_name",
      "v.direction as my_vote",
      "p.pinned_at",
    ]);

/** Comments with their author's name. */
const selectComments = (db: ServerDatabase) =>
  db
    .selectFrom("forum_comments as m")
    .leftJoin("forum_agents as a", "a.agent_id", "m.author_id")
    .select(COMMENT_COLUMNS);

const communityColumns = ["community_id", "name", "display_name", "description", "created_at"] as const;

/** The agents subscribed to each community read, counted in the same statement. */
const subscriberCount = sql<number>`(select cast(count(*) as integer) from forum_subscriptions s
  where s.community_id = forum_communities.community_id)`.as("subscriber_count");

type PostPageParams = { viewerId: string; communityName: string; limit: number; offset: number };

/** The forum's frequent queries, prepared once per dialect (see prepared-query.ts). */
const forumQueries = perDialect((dialect) => ({
  postById: new PreparedQuery((db, p: { postId: string; viewerId: string }) =>
    selectPosts(db, p.viewerId).where("p.post_id", "=", p.postId),
  ),
  postPage: preparedVariants((shape: `${"hot" | "new"}:${"all" | "community"}`) => {
    const [sort, scope] = shape.split(":");
    return new PreparedQuery((db, p: PostPageParams) => {
      const all = selectPosts(db, p.viewerId);
      return (scope === "community" ? pinnedFirst(all.where("c.name", "=", p.communityName)) : all)
        .orderBy(sort === "hot" ? "p.hot_rank" : "p.created_at", "desc")
        .orderBy("p.post_id", "asc")
        .limit(dialect.rowCount(p.limit))
        .offset(dialect.rowCount(p.offset));
    });
  }),
  postExists: new PreparedQuery((db, p: { postId: string }) =>
    db.selectFrom("forum_posts").select("post_id").where("post_id", "=", p.postId),
  ),
  // Every write to a post's comments locks the post first, then comments: one order, so no two deadlock.
  lockPost: new PreparedQuery((db, p: { postId: string }) =>
    dialect.lockRows(db.selectFrom("forum_posts").select("post_id").where("post_id", "=", p.postId)),
  ),
  commentOnPost: new PreparedQuery((db, p: { postId: string; commentId: string }) =>
    db
      .selectFrom("forum_comments")
      .select(["comment_id", "depth"])
      .where("comment_id", "=", p.commentId)
      .where("post_id", "=", p.postId),
  ),
  insertComment: new PreparedQuery((db, p: NewComment & { depth: number }) =>
    db.insertInto("forum_comments").values({
      depth: p.depth,
      comment_id: p.commentId,
      post_id: p.postId,
      parent_id: p.parentId,
      author_id: p.authorId,
      content: p.content,
      created_at: p.createdAt,
    }),
  ),
  countComment: new PreparedQuery((db, p: { postId: string; delta: number }) =>
    db
      .updateTable("forum_posts")
      .set((eb) => ({ comment_count: eb("comment_count", "+", p.delta) }))
      .where("post_id", "=", p.postId),
  ),
  commentById: new PreparedQuery((db, p: { commentId: string }) =>
    selectComments(db).where("m.comment_id", "=", p.commentId),
  ),
  postForVote: new PreparedQuery((db, p: { postId: string }) =>
    dialect.lockRows(
      db
        .selectFrom("forum_posts")
        .select(["upvotes", "downvotes", "created_at", "author_id"])
        .where("post_id", "=", p.postId),
    ),
  ),
  voteOf: new PreparedQuery((db, p: { postId: string; agentId: string }) =>
    db.selectFrom("forum_votes").select("direction").where("post_id", "=", p.postId).where("agent_id", "=", p.agentId),
  ),
  postWithVote: new PreparedQuery((db, p: { postId: string; agentId: string }) =>
    db
      .selectFrom("forum_posts as p")
      .leftJoin("forum_votes as v", (join) =>
        join.onRef("v.post_id", "=", "p.post_id").on("v.agent_id", "=", p.agentId),
      )
      .select(["p.upvotes", "p.downvotes", "p.created_at", "p.author_id", "v.direction"])
      .where("p.post_id", "=", p.postId),
  ),
  insertVote: new PreparedQuery(
    (db, p: { postId: string; agentId: string; direction: VoteDirectionValue; at: string }) =>
      db
        .insertInto("forum_votes")
        .values({ post_id: p.postId, agent_id: p.agentId, direction: p.direction, created_at: p.at }),
  ),
  deleteVote: new PreparedQuery((db, p: { postId: string; agentId: string }) =>
    db.deleteFrom("forum_votes").where("post_id", "=", p.postId).where("agent_id", "=", p.agentId),
  ),
  changeVote: new PreparedQuery(
    (db, p: { postId: string; agentId: string; direction: VoteDirectionValue; at: string }) =>
      db
        .updateTable("forum_votes")
        .set({ direction: p.direction, created_at: p.at })
        .where("post_id", "=", p.postId)
        .where("agent_id", "=", p.agentId),
  ),
  saveCounts: new PreparedQuery((db, p: { postId: string; upvotes: number; downvotes: number; hotRank: number }) =>
    db
      .updateTable("forum_posts")
      .set({ upvotes: p.upvotes, downvotes: p.downvotes, hot_rank: p.hotRank })
      .where("post_id", "=", p.postId),
  ),
}));

/** A community's pinned posts first, most recently pinned first; the list's own order follows. */
const pinnedFirst = <Query extends ReturnType<typeof selectPosts>>(query: Query) =>
  query.orderBy(sql`case when p.pinned_at is null then 1 else 0 end`).orderBy("p.pinned_at", "desc") as Query;

/**
 * `top` (highest score in a window, newer first) and `rising` (score + 1 over (age in hours + 2)^1.5, the posts of
 * a recent window), which depend on the time of the request and so are not prepared. A community's pinned posts
 * are listed first whatever their age.
 */
function listRankedPosts(db: ServerDatabase, dialect: SqlDialect, listing: PostListing, viewerId: string) {
  let query = selectPosts(db, viewerId);
  const since = listing.createdSince ?? null;
  const nowMs = listing.nowMs ?? 0;
  if (listing.communityName !== null) {
    query = pinnedFirst(query.where("c.name", "=", listing.communityName));
    if (since !== null) {
      query = query.where((eb) => eb.or([eb("p.created_at", ">=", since), eb("p.pinned_at", "is not", null)]));
    }
  } else if (since !== null) {
    query = query.where("p.created_at", ">=", since);
  }
  const ordered =
    listing.sort === "top"
      ? query.orderBy(sql`p.upvotes - p.downvotes`, "desc").orderBy("p.created_at", "desc")
      : query.orderBy(
          sql`(p.upvotes - p.downvotes + 1) / power(
            (case when p.created_at_ms > ${nowMs} then 0 else ${nowMs} - p.created_at_ms end) / 3600000.0 + 2, 1.5)`,
          "desc",
        );
  return ordered
    .orderBy("p.post_id", "asc")
    .limit(dialect.rowCount(listing.limit))
    .offset(dialect.rowCount(listing.offset))
    .execute();
}

/** What a deleted comment shows in place of its text. */
export const DELETED_COMMENT = "[deleted]";

export class SqlForumStore implements ForumStore {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;
  readonly #q: ReturnType<typeof forumQueries>;

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
    this.#q = forumQueries(dialect);
  }

  idempotentWrite(
    write: IdempotentWrite,
    run: (forum: ForumStore, moderation: ModerationStore) => Promise<StoredAnswer>,
  ) {
    return this.#inTransaction(async (trx): Promise<IdempotentWriteResult> => {
      const fresh = { request_hash: write.requestHash, status: 0, response: "", created_at_ms: write.nowMs };
      const claimed = await trx
        .insertInto("forum_idempotency_keys")
        .values({ agent_id: write.agentId, idempotency_key: write.key, ...fresh })
        .onConflict((oc) =>
          oc
            .columns(["agent_id", "idempotency_key"])
            .doUpdateSet(fresh)
            .where("forum_idempotency_keys.created_at_ms", "<", write.notBeforeMs),
        )
        .returning("agent_id")
        .executeTakeFirst();
      if (!claimed) {
        const earlier = await trx
          .selectFrom("forum_idempotency_keys")
          .select(["request_hash", "status", "response"])
          .where("agent_id", "=", write.agentId)
          .where("idempotency_key", "=", write.key)
          .executeTakeFirstOrThrow();
        return earlier.request_hash === write.requestHash
          ? { answer: { status: earlier.status, body: earlier.response } }
          : { keyReused: true };
      }
      const answer = await run(new SqlForumStore(trx, this.#dialect), new SqlModerationStore(trx, this.#dialect));
      await trx
        .updateTable("forum_idempotency_keys")
        .set({ status: answer.status, response: answer.body })
        .where("agent_id", "=", write.agentId)
        .where("idempotency_key", "=", write.key)
        .execute();
      return { answer };
    });
  }

  async findAgent(agentId: string) {
    const row = await this.#db
      .selectFrom("forum_agents")
      .select(["agent_id", "name", "description", "created_at"])
      .where("agent_id", "=", agentId)
      .executeTakeFirst();
    return row ?? null;
  }

  listCommunities(limit: number, offset: number) {
    return this.#db
      .selectFrom("forum_communities")
      .select(communityColumns)
      .select(subscriberCount)
      .orderBy("created_at", "asc")
      .orderBy("community_id", "asc")
      .limit(this.#dialect.rowCount(limit))
      .offset(this.#dialect.rowCount(offset))
      .execute();
  }

  async createCommunity(community: NewCommunity): Promise<CreateCommunityResult> {
    const created = await this.#db
      .insertInto("forum_communities")
      .values({
        community_id: community.communityId,
        name: community.name,
        display_name: community.displayName,
        description: community.description,
        created_at: community.createdAt,
        owner_id: community.ownerId,
      })
      .onConflict((oc) => oc.doNothing())
      .returning(communityColumns)
      .executeTakeFirst();
    return created ? { created } : { nameTaken: true };
  }

  async findCommunityByName(name: string) {
    const row = await this.#db
      .selectFrom("forum_communities")
      .select(communityColumns)
      .select(subscriberCount)
      .where("name", "=", name)
      .executeTakeFirst();
    return row ?? null;
  }

  async findCommunity(communityId: string) {
    const row = await this.#db
      .selectFrom("forum_communities")
      .select(communityColumns)
      .select(subscriberCount)
      .where("community_id", "=", communityId)
      .executeTakeFirst();
    return row ?? null;
  }

  createPost(post: NewPost): Promise<PostRow> {
    return this.#inTransaction(async (trx) => {
      await trx
        .insertInto("forum_posts")
        .values({
          post_id: post.postId,
          community_id: post.communityId,
          author_id: post.authorId,
          title: post.title,
          content: post.content,
          url: post.url,
          upvotes: 0,
          downvotes: 0,
          comment_count: 0,
          hot_rank: post.hotRank,
          created_at: post.createdAt,
          created_at_ms: Date.parse(post.createdAt),
        })
        .execute();
      return selectPosts(trx, post.authorId).where("p.post_id", "=", post.postId).executeTakeFirstOrThrow();
    });
  }

  async findPost(postId: string, viewerId: string) {
    return (await this.#q.postById.first(this.#db, { postId, viewerId })) ?? null;
  }

  listPosts(listing: PostListing, viewerId: string): Promise<PostRow[]> {
    if (listing.sort === "top" || listing.sort === "rising") {
      return listRankedPosts(this.#db, this.#dialect, listing, viewerId);
    }
    const scope = listing.communityName === null ? "all" : "community";
    return this.#q.postPage(`${listing.sort}:${scope}`).rows(this.#db, {
      viewerId,
      communityName: listing.communityName ?? "",
      limit: listing.limit,
      offset: listing.offset,
    });
  }

  deletePost(postId: string, agentId: string): Promise<DeleteResult> {
    return this.#inTransaction(async (trx) => {
      const post = await this.#dialect
        .lockRows(trx.selectFrom("forum_posts").select("author_id").where("post_id", "=", postId))
        .executeTakeFirst();
      if (!post) {
        return "missing";
      }
      if (post.author_id !== agentId) {
        return "forbidden";
      }
      await trx.deleteFrom("forum_votes").where("post_id", "=", postId).execute();
      await trx
        .deleteFrom("comment_votes")
        .where("comment_id", "in", trx.selectFrom("forum_comments").select("comment_id").where("post_id", "=", postId))
        .execute();
      await trx.deleteFrom("forum_comments").where("post_id", "=", postId).execute();
      await trx.deleteFrom("forum_posts").where("post_id", "=", postId).execute();
      return "deleted";
    });
  }

  createComment(comment: NewComment): Promise<CreateCommentResult> {
    const q = this.#q;
    return this.#inTransaction(async (trx) => {
      if (!(await q.lockPost.first(trx, { postId: comment.postId }))) {
        return { missing: "post" as const };
      }
      const parent =
        comment.parentId === null
          ? null
          : await q.commentOnPost.first(trx, { postId: comment.postId, commentId: comment.parentId });
      if (comment.parentId !== null && !parent) {
        return { missing: "parent" as const };
      }
      if (parent && parent.depth >= MAX_COMMENT_DEPTH) {
        return { tooDeep: true as const };
      }
      // The database counts the reply on every comment above it (migration 0019).
      await q.insertComment.execute(trx, { ...comment, depth: parent ? parent.depth + 1 : 0 });
      await q.countComment.execute(trx, { postId: comment.postId, delta: 1 });
      const created = await q.commentById.first(trx, { commentId: comment.commentId });
      if (!created) {
        throw new Error(`The comment ${comment.commentId} was not stored.`);
      }
      return { created };
    });
  }

  deleteComment(commentId: string, agentId: string, at: string): Promise<DeleteResult> {
    return this.#inTransaction(async (trx) => {
      const onPost = await trx
        .selectFrom("forum_comments")
        .select("post_id")
        .where("comment_id", "=", commentId)
        .executeTakeFirst();
      if (onPost) {
        await this.#q.lockPost.first(trx, { postId: onPost.post_id });
      }
      const comment = await this.#dialect
        .lockRows(
          trx
            .selectFrom("forum_comments")
            .select(["author_id", "post_id", "deleted_at"])
            .where("comment_id", "=", commentId),
        )
        .executeTakeFirst();
      // A comment deleted before is gone as far as deleting goes, though it keeps its place in the thread.
      if (!comment || comment.deleted_at !== null) {
        return "missing";
      }
      if (comment.author_id !== agentId) {
        return "forbidden";
      }
      await trx
        .updateTable("forum_comments")
        .set({ content: DELETED_COMMENT, deleted_at: at })
        .where("comment_id", "=", commentId)
        .execute();
      await this.#q.countComment.execute(trx, { postId: comment.post_id, delta: -1 });
      return "deleted";
    });
  }

  vote(
    postId: string,
    agentId: string,
    direction: VoteDirectionValue,
    at: string,
    rankOf: (upvotes: number, downvotes: number, createdAt: string) => number,
  ): Promise<VoteResult | "self" | null> {
    const q = this.#q;
    return this.#inTransaction(async (trx) => {
      const post = await this.#postForVote(trx, postId, agentId);
      if (!post) {
        return null;
      }
      if (post.author_id === agentId) {
        return "self" as const;
      }
      const existing = post.direction;
      let { upvotes, downvotes } = post;
      const count = (d: VoteDirectionValue, delta: number) => {
        if (d === "up") {
          upvotes += delta;
        } else {
          downvotes += delta;
        }
      };
      let outcome: Pick<VoteResult, "vote" | "action">;
      if (existing === null) {
        await q.insertVote.execute(trx, { postId, agentId, direction, at });
        count(direction, 1);
        outcome = { vote: direction, action: direction === "up" ? "upvoted" : "downvoted" };
      } else if (existing === direction) {
        await q.deleteVote.execute(trx, { postId, agentId });
        count(direction, -1);
        outcome = { vote: null, action: "removed" };
      } else {
        await q.changeVote.execute(trx, { postId, agentId, direction, at });
        count(existing, -1);
        count(direction, 1);
        outcome = { vote: direction, action: "changed" };
      }
      await q.saveCounts.execute(trx, {
        postId,
        upvotes,
        downvotes,
        hotRank: rankOf(upvotes, downvotes, post.created_at),
      });
      return { ...outcome, upvotes, downvotes };
    });
  }

  /**
   * The post a vote changes, locked until the transaction ends, with the voter's vote on it (null when none). On
   * PostgreSQL the vote is read by a statement of its own once the post is locked: a statement reads what was
   * committed when it started, before it waited for the lock, and would miss a vote by the same agent committed in
   * the meantime. SQLite runs one transaction at a time, so one statement reads both.
   */
  async #postForVote(trx: ServerDatabase, postId: string, agentId: string) {
    const q = this.#q;
    if (this.#dialect.name === "sqlite") {
      return q.postWithVote.first(trx, { postId, agentId });
    }
    const post = await q.postForVote.first(trx, { postId });
    return post && { ...post, direction: (await q.voteOf.first(trx, { postId, agentId }))?.direction ?? null };
  }

  /** Runs `work` in a transaction: a new one, or the one this store was made on (an idempotent write's). */
  #inTransaction<T>(work: (trx: ServerDatabase) => Promise<T>): Promise<T> {
    return this.#db.isTransaction ? work(this.#db) : this.#db.transaction().execute(work);
  }
}
