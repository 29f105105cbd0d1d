import type { ServerDatabase } from "../database.ts";
import type { VoteDirectionValue } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";

export type PostSort = "hot" | "new";

export interface NewPost {
  postId: string;
  tenantId: string;
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
  tenantId: string;
  postId: string;
  parentId: string | null;
  authorId: string;
  content: string;
  createdAt: string;
}

/** A post with its author's name and its community's names (null when either is gone). */
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
}

/** A comment with its author's name. */
export interface CommentRow {
  comment_id: string;
  post_id: string;
  parent_id: string | null;
  content: string;
  created_at: string;
  author_id: string;
  author_name: string | null;
}

export interface CommunityRow {
  community_id: string;
  name: string;
  display_name: string;
}

export type CreateCommentResult = { created: CommentRow } | { missing: "post" | "parent" };

export interface VoteResult {
  vote: VoteDirectionValue | null;
  action: "upvoted" | "downvoted" | "removed" | "changed";
  upvotes: number;
  downvotes: number;
}

/** The forum's posts, comments, votes and communities, always within one tenant. */
export interface ForumStore {
  /** Gives every forum tenant the default community (idempotent). */
  ensureCommunity(community: CommunityRow, at: string): Promise<void>;
  findCommunity(tenantId: string, communityId: string): Promise<CommunityRow | null>;
  createPost(post: NewPost): Promise<PostRow>;
  findPost(tenantId: string, postId: string): Promise<PostRow | null>;
  /** Up to `limit` posts after skipping `offset`, ordered by `sort`, ties by id. */
  listPosts(tenantId: string, sort: PostSort, limit: number, offset: number): Promise<PostRow[]>;
  /** Adds a comment and counts it on its post, in one transaction. */
  createComment(comment: NewComment): Promise<CreateCommentResult>;
  /** The post's comments, oldest first; null when the post does not exist in the tenant. */
  listComments(tenantId: string, postId: string, limit: number, offset: number): Promise<CommentRow[] | null>;
  /**
   * Applies a vote (first vote, same direction again to remove, other direction to flip) and updates the post's
   * counts and rank, in one transaction that holds the post, so votes through any instance are all counted. Null when
   * the post does not exist in the tenant.
   */
  vote(
    tenantId: string,
    postId: string,
    agentId: string,
    direction: VoteDirectionValue,
    at: string,
    rankOf: (upvotes: number, downvotes: number, createdAt: string) => number,
  ): Promise<VoteResult | null>;
}

/** Posts with their author's name and their community. */
const selectPosts = (db: ServerDatabase) =>
  db
    .selectFrom("forum_posts as p")
    .leftJoin("forum_agents as a", "a.agent_id", "p.author_id")
    .leftJoin("forum_communities as c", (join) =>
      join.onRef("c.tenant_id", "=", "p.tenant_id").onRef("c.community_id", "=", "p.community_id"),
    )
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
    ]);

/** Comments with their author's name. */
const selectComments = (db: ServerDatabase) =>
  db
    .selectFrom("forum_comments as m")
    .leftJoin("forum_agents as a", "a.agent_id", "m.author_id")
    .select([
      "m.comment_id",
      "m.post_id",
      "m.parent_id",
      "m.content",
      "m.created_at",
      "m.author_id",
      "a.name as author_name",
    ]);

export class SqlForumStore implements ForumStore {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  async ensureCommunity(community: CommunityRow, at: string): Promise<void> {
    await this.#db
      .insertInto("forum_communities")
      .columns(["tenant_id", "community_id", "name", "display_name", "created_at"])
      .expression((eb) =>
        eb
          .selectFrom("forum_agents")
          .select([
            "agent_id",
            eb.val(community.community_id).as("community_id"),
            eb.val(community.name).as("name"),
            eb.val(community.display_name).as("display_name"),
            eb.val(at).as("created_at"),
          ])
          // SQLite reads `on conflict` after a bare `select ... from` as a join's `on`: a where clause ends the select.
          .where("agent_id", "is not", null),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  async findCommunity(tenantId: string, communityId: string) {
    const row = await this.#db
      .selectFrom("forum_communities")
      .select(["community_id", "name", "display_name"])
      .where("tenant_id", "=", tenantId)
      .where("community_id", "=", communityId)
      .executeTakeFirst();
    return row ?? null;
  }

  createPost(post: NewPost): Promise<PostRow> {
    return this.#db.transaction().execute(async (trx) => {
      await trx
        .insertInto("forum_posts")
        .values({
          post_id: post.postId,
          tenant_id: post.tenantId,
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
        })
        .execute();
      return selectPosts(trx).where("p.post_id", "=", post.postId).executeTakeFirstOrThrow();
    });
  }

  async findPost(tenantId: string, postId: string) {
    const row = await selectPosts(this.#db)
      .where("p.tenant_id", "=", tenantId)
      .where("p.post_id", "=", postId)
      .executeTakeFirst();
    return row ?? null;
  }

  listPosts(tenantId: string, sort: PostSort, limit: number, offset: number): Promise<PostRow[]> {
    return selectPosts(this.#db)
      .where("p.tenant_id", "=", tenantId)
      .orderBy(sort === "hot" ? "p.hot_rank" : "p.created_at", "desc")
      .orderBy("p.post_id", "asc")
      .limit(this.#dialect.rowCount(limit))
      .offset(this.#dialect.rowCount(offset))
      .execute();
  }

  createComment(comment: NewComment): Promise<CreateCommentResult> {
    return this.#db.transaction().execute(async (trx) => {
      if (!(await this.#postExists(trx, comment.tenantId, comment.postId))) {
        return { missing: "post" as const };
      }
      if (comment.parentId !== null) {
        const parent = await trx
          .selectFrom("forum_comments")
          .select("comment_id")
          .where("comment_id", "=", comment.parentId)
          .where("post_id", "=", comment.postId)
          .where("tenant_id", "=", comment.tenantId)
          .executeTakeFirst();
        if (!parent) {
          return { missing: "parent" as const };
        }
      }
      await trx
        .insertInto("forum_comments")
        .values({
          comment_id: comment.commentId,
          tenant_id: comment.tenantId,
          post_id: comment.postId,
          parent_id: comment.parentId,
          author_id: comment.authorId,
          content: comment.content,
          created_at: comment.createdAt,
        })
        .execute();
      await trx
        .updateTable("forum_posts")
        .set((eb) => ({ comment_count: eb("comment_count", "+", 1) }))
        .where("post_id", "=", comment.postId)
        .execute();
      return {
        created: await selectComments(trx).where("m.comment_id", "=", comment.commentId).executeTakeFirstOrThrow(),
      };
    });
  }

  async listComments(tenantId: string, postId: string, limit: number, offset: number) {
    if (!(await this.#postExists(this.#db, tenantId, postId))) {
      return null;
    }
    return selectComments(this.#db)
      .where("m.post_id", "=", postId)
      .orderBy("m.created_at", "asc")
      .orderBy("m.comment_id", "asc")
      .limit(this.#dialect.rowCount(limit))
      .offset(this.#dialect.rowCount(offset))
      .execute();
  }

  vote(
    tenantId: string,
    postId: string,
    agentId: string,
    direction: VoteDirectionValue,
    at: string,
    rankOf: (upvotes: number, downvotes: number, createdAt: string) => number,
  ): Promise<VoteResult | null> {
    return this.#db.transaction().execute(async (trx) => {
      const post = await this.#dialect
        .lockRows(
          trx
            .selectFrom("forum_posts")
            .select(["upvotes", "downvotes", "created_at"])
            .where("tenant_id", "=", tenantId)
            .where("post_id", "=", postId),
        )
        .executeTakeFirst();
      if (!post) {
        return null;
      }
      const existing = await trx
        .selectFrom("forum_votes")
        .select("direction")
        .where("post_id", "=", postId)
        .where("agent_id", "=", agentId)
        .executeTakeFirst();
      let { upvotes, downvotes } = post;
      const count = (d: VoteDirectionValue, delta: number) => {
        if (d === "up") {
          upvotes += delta;
        } else {
          downvotes += delta;
        }
      };
      let outcome: Pick<VoteResult, "vote" | "action">;
      if (!existing) {
        await trx
          .insertInto("forum_votes")
          .values({ post_id: postId, agent_id: agentId, direction, created_at: at })
          .execute();
        count(direction, 1);
        outcome = { vote: direction, action: direction === "up" ? "upvoted" : "downvoted" };
      } else if (existing.direction === direction) {
        await trx.deleteFrom("forum_votes").where("post_id", "=", postId).where("agent_id", "=", agentId).execute();
        count(direction, -1);
        outcome = { vote: null, action: "removed" };
      } else {
        await trx
          .updateTable("forum_votes")
          .set({ direction, created_at: at })
          .where("post_id", "=", postId)
          .where("agent_id", "=", agentId)
          .execute();
        count(existing.direction, -1);
        count(direction, 1);
        outcome = { vote: direction, action: "changed" };
      }
      await trx
        .updateTable("forum_posts")
        .set({ upvotes, downvotes, hot_rank: rankOf(upvotes, downvotes, post.created_at) })
        .where("post_id", "=", postId)
        .execute();
      return { ...outcome, upvotes, downvotes };
    });
  }

  async #postExists(db: ServerDatabase, tenantId: string, postId: string): Promise<boolean> {
    const row = await db
      .selectFrom("forum_posts")
      .select("post_id")
      .where("tenant_id", "=", tenantId)
      .where("post_id", "=", postId)
      .executeTakeFirst();
    return row !== undefined;
  }
}
