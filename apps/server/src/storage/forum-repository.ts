import type { Comment, Community, Post, VoteDirection, VoteResponse } from "@pigeonhole/forum-types";
import { sql } from "kysely";
import type { ServerDatabase } from "./database.ts";
import { PreparedQuery } from "./prepared-query.ts";
import { rowLimit } from "./row-limit.ts";

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

const communityOfTenant = new PreparedQuery((db, p: { tenantId: string; communityId: string }) =>
  db
    .selectFrom("forum_communities")
    .select(["community_id", "name", "display_name"])
    .where("tenant_id", "=", p.tenantId)
    .where("community_id", "=", p.communityId),
);

const insertPost = new PreparedQuery((db, p: NewPost) =>
  db.insertInto("forum_posts").values({
    post_id: p.postId,
    tenant_id: p.tenantId,
    community_id: p.communityId,
    author_id: p.authorId,
    title: p.title,
    content: p.content,
    url: p.url,
    upvotes: 0,
    downvotes: 0,
    comment_count: 0,
    hot_rank: p.hotRank,
    created_at: p.createdAt,
  }),
);

const postById = new PreparedQuery((db, p: { postId: string }) => selectPosts(db).where("p.post_id", "=", p.postId));

const postOfTenant = new PreparedQuery((db, p: { tenantId: string; postId: string }) =>
  selectPosts(db).where("p.tenant_id", "=", p.tenantId).where("p.post_id", "=", p.postId),
);

type PageParams = { tenantId: string; limit: number; offset: number };

const postPages: Record<PostSort, PreparedQuery<PageParams, PostRow>> = {
  hot: new PreparedQuery((db, p: PageParams) =>
    selectPosts(db)
      .where("p.tenant_id", "=", p.tenantId)
      .orderBy("p.hot_rank", "desc")
      .orderBy("p.post_id", "asc")
      .limit(rowLimit(p.limit))
      .offset(rowLimit(p.offset)),
  ),
  new: new PreparedQuery((db, p: PageParams) =>
    selectPosts(db)
      .where("p.tenant_id", "=", p.tenantId)
      .orderBy("p.created_at", "desc")
      .orderBy("p.post_id", "asc")
      .limit(rowLimit(p.limit))
      .offset(rowLimit(p.offset)),
  ),
};

const postExists = new PreparedQuery((db, p: { tenantId: string; postId: string }) =>
  db.selectFrom("forum_posts").select("post_id").where("tenant_id", "=", p.tenantId).where("post_id", "=", p.postId),
);

const commentOnPost = new PreparedQuery((db, p: { tenantId: string; postId: string; commentId: string }) =>
  db
    .selectFrom("forum_comments")
    .select("comment_id")
    .where("comment_id", "=", p.commentId)
    .where("post_id", "=", p.postId)
    .where("tenant_id", "=", p.tenantId),
);

const insertComment = new PreparedQuery((db, p: NewComment) =>
  db.insertInto("forum_comments").values({
    comment_id: p.commentId,
    tenant_id: p.tenantId,
    post_id: p.postId,
    parent_id: p.parentId,
    author_id: p.authorId,
    content: p.content,
    created_at: p.createdAt,
  }),
);

const countComment = new PreparedQuery((db, p: { postId: string }) =>
  db
    .updateTable("forum_posts")
    .set((eb) => ({ comment_count: eb("comment_count", "+", 1) }))
    .where("post_id", "=", p.postId),
);

const commentById = new PreparedQuery((db, p: { commentId: string }) =>
  selectComments(db).where("m.comment_id", "=", p.commentId),
);

const commentPage = new PreparedQuery((db, p: { postId: string; limit: number; offset: number }) =>
  selectComments(db)
    .where("m.post_id", "=", p.postId)
    .orderBy("m.created_at", "asc")
    .orderBy("m.comment_id", "asc")
    .limit(rowLimit(p.limit))
    .offset(rowLimit(p.offset)),
);

const postCounts = new PreparedQuery((db, p: { tenantId: string; postId: string }) =>
  db
    .selectFrom("forum_posts")
    .select(["upvotes", "downvotes", "created_at"])
    .where("tenant_id", "=", p.tenantId)
    .where("post_id", "=", p.postId),
);

const voteOf = new PreparedQuery((db, p: { postId: string; agentId: string }) =>
  db.selectFrom("forum_votes").select("direction").where("post_id", "=", p.postId).where("agent_id", "=", p.agentId),
);

const insertVote = new PreparedQuery(
  (db, p: { postId: string; agentId: string; direction: VoteDirection; at: string }) =>
    db
      .insertInto("forum_votes")
      .values({ post_id: p.postId, agent_id: p.agentId, direction: p.direction, created_at: p.at }),
);

const deleteVote = new PreparedQuery((db, p: { postId: string; agentId: string }) =>
  db.deleteFrom("forum_votes").where("post_id", "=", p.postId).where("agent_id", "=", p.agentId),
);

const changeVote = new PreparedQuery(
  (db, p: { postId: string; agentId: string; direction: VoteDirection; at: string }) =>
    db
      .updateTable("forum_votes")
      .set({ direction: p.direction, created_at: p.at })
      .where("post_id", "=", p.postId)
      .where("agent_id", "=", p.agentId),
);

const saveCounts = new PreparedQuery((db, p: { postId: string; upvotes: number; downvotes: number; hotRank: number }) =>
  db
    .updateTable("forum_posts")
    .set({ upvotes: p.upvotes, downvotes: p.downvotes, hot_rank: p.hotRank })
    .where("post_id", "=", p.postId),
);

export class SqliteForumRepository implements ForumRepository {
  readonly #db: ServerDatabase;

  constructor(db: ServerDatabase) {
    this.#db = db;
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
    const row = await communityOfTenant.first(this.#db, { tenantId, communityId });
    return row ? { id: row.community_id, name: row.name, display_name: row.display_name } : null;
  }

  async createPost(post: NewPost): Promise<Post> {
    return this.#db.transaction().execute(async (trx) => {
      await insertPost.execute(trx, post);
      const row = await postById.first(trx, { postId: post.postId });
      if (!row) {
        throw new Error(`The post ${post.postId} was not stored.`);
      }
      return toPost(row);
    });
  }

  async findPost(tenantId: string, postId: string): Promise<Post | null> {
    const row = await postOfTenant.first(this.#db, { tenantId, postId });
    return row ? toPost(row) : null;
  }

  async listPosts(tenantId: string, sort: PostSort, limit: number, offset: number): Promise<Post[]> {
    const rows = await postPages[sort].rows(this.#db, { tenantId, limit, offset });
    return rows.map(toPost);
  }

  async createComment(comment: NewComment): Promise<CreateCommentResult> {
    return this.#db.transaction().execute(async (trx) => {
      if (!(await postExists.first(trx, { tenantId: comment.tenantId, postId: comment.postId }))) {
        return { missing: "post" as const };
      }
      if (comment.parentId !== null) {
        const parent = await commentOnPost.first(trx, {
          tenantId: comment.tenantId,
          postId: comment.postId,
          commentId: comment.parentId,
        });
        if (!parent) {
          return { missing: "parent" as const };
        }
      }
      await insertComment.execute(trx, comment);
      await countComment.execute(trx, { postId: comment.postId });
      const row = await commentById.first(trx, { commentId: comment.commentId });
      if (!row) {
        throw new Error(`The comment ${comment.commentId} was not stored.`);
      }
      return { created: toComment(row) };
    });
  }

  async listComments(tenantId: string, postId: string, limit: number, offset: number): Promise<Comment[] | null> {
    if (!(await postExists.first(this.#db, { tenantId, postId }))) {
      return null;
    }
    const rows = await commentPage.rows(this.#db, { postId, limit, offset });
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
      const post = await postCounts.first(trx, { tenantId, postId });
      if (!post) {
        return null;
      }
      const existing = await voteOf.first(trx, { postId, agentId });
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
        await insertVote.execute(trx, { postId, agentId, direction, at });
        count(direction, 1);
        outcome = { vote: direction, action: direction === "up" ? "upvoted" : "downvoted" };
      } else if (existing.direction === direction) {
        await deleteVote.execute(trx, { postId, agentId });
        count(direction, -1);
        outcome = { vote: null, action: "removed" };
      } else {
        await changeVote.execute(trx, { postId, agentId, direction, at });
        count(existing.direction, -1);
        count(direction, 1);
        outcome = { vote: direction, action: "changed" };
      }
      await saveCounts.execute(trx, {
        postId,
        upvotes,
        downvotes,
        hotRank: rankOf(upvotes, downvotes, post.created_at),
      });
      return { post_id: postId, ...outcome, upvotes, downvotes };
    });
  }
}
