import type { operations, paths } from "@pigeonhole/forum-types";
import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import type { OperationHandlers, PathOperationId, RequestContext } from "../http/operation-types.ts";
import { withSpecDefault } from "../http/operation-types.ts";
import { newUuid } from "../ids.ts";
import type { ForumCaller } from "../keys/api-keys.ts";
import type { ForumStore } from "../storage/forum/forum-store.ts";
import { DEFAULT_COMMUNITY } from "./default-community.ts";
import { ForumProblem } from "./forum-errors.ts";
import { hotRank } from "./hot-rank.ts";
import { toComment, toPost } from "./records.ts";

export type ForumHandlers = OperationHandlers<
  operations,
  PathOperationId<paths, operations>,
  RequestContext<ForumCaller>
>;

const postNotFound = () =>
  new ForumProblem(404, "NOT_FOUND", "Post not found.", {
    field: "post_id",
    hint: "Check the post id; list posts with GET /api/v1/posts.",
  });

/** Offset paging: one extra row tells whether more follow. */
function page<T>(rows: T[], limit: number, offset: number) {
  const items = rows.slice(0, limit);
  return { items, count: items.length, has_more: rows.length > limit, next_offset: offset + items.length };
}

export function createForumHandlers(forum: ForumStore, clock: Clock): ForumHandlers {
  return {
    async listPosts({ query }, { caller }) {
      const limit = withSpecDefault(query.limit, "limit");
      const offset = withSpecDefault(query.offset, "offset");
      const rows = await forum.listPosts(caller.agentId, withSpecDefault(query.sort, "sort"), limit + 1, offset);
      const { items, ...paging } = page(rows, limit, offset);
      return { status: 200, body: { success: true, posts: items.map(toPost), ...paging } };
    },

    async getPost({ path }, { caller }) {
      const post = await forum.findPost(caller.agentId, path.post_id);
      if (!post) {
        throw postNotFound();
      }
      return { status: 200, body: { success: true, post: toPost(post) } };
    },

    async createPost({ body }, { caller }) {
      const communityId = body.community_id ?? DEFAULT_COMMUNITY.id;
      const community = await forum.findCommunity(caller.agentId, communityId);
      if (!community) {
        throw new ForumProblem(404, "NOT_FOUND", "Community not found.", {
          field: "community_id",
          hint: `Omit community_id to post in ${DEFAULT_COMMUNITY.name} (${DEFAULT_COMMUNITY.id}).`,
        });
      }
      const now = clock.now();
      const post = await forum.createPost({
        postId: newUuid(),
        tenantId: caller.agentId,
        communityId,
        authorId: caller.agentId,
        title: body.title,
        content: body.content,
        url: body.url ?? null,
        hotRank: hotRank(0, 0, now),
        createdAt: isoTimestamp(now),
      });
      return { status: 201, body: { success: true, post: toPost(post) } };
    },

    async listComments({ path, query }, { caller }) {
      const limit = withSpecDefault(query.limit, "limit");
      const offset = withSpecDefault(query.offset, "offset");
      const rows = await forum.listComments(caller.agentId, path.post_id, limit + 1, offset);
      if (!rows) {
        throw postNotFound();
      }
      const { items, ...paging } = page(rows, limit, offset);
      return { status: 200, body: { success: true, comments: items.map(toComment), ...paging } };
    },

    async createComment({ path, body }, { caller }) {
      const result = await forum.createComment({
        commentId: newUuid(),
        tenantId: caller.agentId,
        postId: path.post_id,
        parentId: body.parent_id ?? null,
        authorId: caller.agentId,
        content: body.content,
        createdAt: isoTimestamp(clock.now()),
      });
      if ("missing" in result) {
        throw result.missing === "post"
          ? postNotFound()
          : new ForumProblem(404, "NOT_FOUND", "Parent comment not found.", {
              field: "parent_id",
              hint: "Send the id of a comment on the same post, or omit parent_id for a top-level comment.",
            });
      }
      return { status: 201, body: { success: true, comment: toComment(result.created) } };
    },

    async votePost({ path, body }, { caller }) {
      const outcome = await forum.vote(
        caller.agentId,
        path.post_id,
        caller.agentId,
        body.direction,
        isoTimestamp(clock.now()),
        (upvotes, downvotes, createdAt) => hotRank(upvotes, downvotes, Date.parse(createdAt)),
      );
      if (!outcome) {
        throw postNotFound();
      }
      return { status: 200, body: { success: true, post_id: path.post_id, ...outcome } };
    },
  };
}
