import type { Comment, Community, Post, VoteDirection, VoteResponse } from "@pigeonhole/forum-types";
import { sql } from "kysely";
import type { SandboxDatabase } from "./database.ts";

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

export type CreateCommentResult = { created: Comment } | { missing: "post" | "parent" };

export type VoteOutcome = Omit<VoteResponse, "success">;

/** Storage of the forum: posts, comments, votes and communities, always within one tenant. */
export interface ForumRepository {
  /** Gives every forum tenant the default community (idempotent). */
  ensureCommunity(community: Community, at: string): Promise<void>;
  findCommunity(tenantId: string, communityId: string): Promise<Community | null>;
  createPost(post: NewPost): Promise<Post>;
  findPost(tenantId: string, postId: string): Promise<Post | null>;
  /** Up to `limit` posts after skipping `offset`, ordered by `sort`, ties by id. */
  listPosts(tenantId: string, sort: PostSort, limit: number, offset: number): Promise<Post[]>;
  /** Adds a comment and counts it on its post, in one transaction. */
  createComment(comment: NewComment): Promise<CreateCommentResult>;
  /** The post's comments, oldest first; null when the post does not exist in the tenant. */
  listComments(tenantId: string, postId: string, limit: number, offset: number): Promise<Comment[] | null>;
  /**
   * Applies a vote (first vote, same direction again to remove, other direction to flip) and updates the post's
   * counts and rank, in one transaction. Null when the post does not exist in the tenant.
   */
  vote(
    tenantId: string,
    postId: string,
    agentId: string,
    direction: VoteDirection,
    at: string,
    rankOf: (upvotes: number, downvotes: number, createdAt: string) => number,
  ): Promise<VoteOutcome | null>;
}

type PostRow = {
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
};

const toPost = (row: PostRow): Post => ({
  id: row.post_id,
  title: row.title,
  content: row.content,
  url: row.url,
  upvotes: row.upvotes,
  downvotes: row.downvotes,
  comment_count: row.comment_count,
  created_at: row.created_at,
  author: { id: row.author_id, name: row.author_name ?? "agent" },
  community: {
    id: row.community_id,
    name: row.community_name ?? "unknown",
    display_name: row.community_display_name ?? "Unknown",
  },
});

type CommentRow = {
  comment_id: string;
  post_id: string;
  parent_id: string | null;
  content: string;
  created_at: string;
  author_id: string;
  author_name: string | null;
};

const toComment = (row: CommentRow): Comment => ({
  id: row.comment_id,
  post_id: row.post_id,
  parent_id: row.parent_id,
  content: row.content,
  upvotes: 0,
  downvotes: 0,
  author: { id: row.author_id, name: row.author_name ?? "agent" },
  created_at: row.created_at,
});

export class SqliteForumRepository implements ForumRepository {
  readonly #db: SandboxDatabase;

  constructor(db: SandboxDatabase) {
    this.#db = db;
  }

  #posts(db: SandboxDatabase = this.#db) {
    return db
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
  }

  #comments(db: SandboxDatabase = this.#db) {
    return db
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
  }

  async ensureCommunity(community: Community, at: string): Promise<void> {
    await this.#db
      .insertInto("forum_communities")
      .columns(["tenant_id", "community_id", "name", "display_name", "created_at"])
      .expression(
        this.#db
          .selectFrom("api_keys")
          .select([
            "tenant_id",
            sql.lit(community.id).as("community_id"),
            sql.lit(community.name).as("name"),
            sql.lit(community.display_name).as("display_name"),
            sql.lit(at).as("created_at"),
          ])
          .where("service", "=", "forum"),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  async findCommunity(tenantId: string, communityId: string): Promise<Community | null> {
    const row = await this.#db
      .selectFrom("forum_communities")
      .select(["community_id", "name", "display_name"])
      .where("tenant_id", "=", tenantId)
      .where("community_id", "=", communityId)
      .executeTakeFirst();
    return row ? { id: row.community_id, name: row.name, display_name: row.display_name } : null;
  }

  async createPost(post: NewPost): Promise<Post> {
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
      const row = await this.#posts(trx).where("p.post_id", "=", post.postId).executeTakeFirstOrThrow();
      return toPost(row);
    });
  }

  async findPost(tenantId: string, postId: string): Promise<Post | null> {
    const row = await this.#posts()
      .where("p.tenant_id", "=", tenantId)
      .where("p.post_id", "=", postId)
      .executeTakeFirst();
    return row ? toPost(row) : null;
  }

  async listPosts(tenantId: string, sort: PostSort, limit: number, offset: number): Promise<Post[]> {
    const ordered =
      sort === "hot"
        ? this.#posts().orderBy("p.hot_rank", "desc").orderBy("p.post_id", "asc")
        : this.#posts().orderBy("p.created_at", "desc").orderBy("p.post_id", "asc");
    const rows = await ordered.where("p.tenant_id", "=", tenantId).limit(limit).offset(offset).execute();
    return rows.map(toPost);
  }

  async createComment(comment: NewComment): Promise<CreateCommentResult> {
    return this.#db.transaction().execute(async (trx) => {
      const post = await trx
        .selectFrom("forum_posts")
        .select("post_id")
        .where("tenant_id", "=", comment.tenantId)
        .where("post_id", "=", comment.postId)
        .executeTakeFirst();
      if (!post) {
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
      const row = await this.#comments(trx).where("m.comment_id", "=", comment.commentId).executeTakeFirstOrThrow();
      return { created: toComment(row) };
    });
  }

  async listComments(tenantId: string, postId: string, limit: number, offset: number): Promise<Comment[] | null> {
    const post = await this.#db
      .selectFrom("forum_posts")
      .select("post_id")
      .where("tenant_id", "=", tenantId)
      .where("post_id", "=", postId)
      .executeTakeFirst();
    if (!post) {
      return null;
    }
    const rows = await this.#comments()
      .where("m.post_id", "=", postId)
      .orderBy("m.created_at", "asc")
      .orderBy("m.comment_id", "asc")
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map(toComment);
  }

  async vote(
    tenantId: string,
    postId: string,
    agentId: string,
    direction: VoteDirection,
    at: string,
    rankOf: (upvotes: number, downvotes: number, createdAt: string) => number,
  ): Promise<VoteOutcome | null> {
    return this.#db.transaction().execute(async (trx) => {
      const post = await trx
        .selectFrom("forum_posts")
        .select(["upvotes", "downvotes", "created_at"])
        .where("tenant_id", "=", tenantId)
        .where("post_id", "=", postId)
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
      const count = (d: VoteDirection, delta: number) => {
        if (d === "up") {
          upvotes += delta;
        } else {
          downvotes += delta;
        }
      };
      let outcome: Pick<VoteOutcome, "vote" | "action">;
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
      return { post_id: postId, ...outcome, upvotes, downvotes };
    });
  }
}
