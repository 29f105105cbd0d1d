import type { operations, paths } from "@pigeonhole/forum-types";
import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import { ApiProblem } from "../http/api-problem.ts";
import type { OperationHandlers, PathOperationId } from "../http/operation-types.ts";
import { withSpecDefault } from "../http/operation-types.ts";
import type { RequestContext } from "../http/service-app.ts";
import { newUuid } from "../ids.ts";
import type { ForumRepository } from "../storage/forum-repository.ts";
import { DEFAULT_COMMUNITY } from "./default-community.ts";
import { hotRank } from "./hot-rank.ts";

/** The agent (and tenant) of a forum API key. */
export interface ForumPrincipal {
  agentId: string;
  agentName: string;
}

export type ForumHandlers = OperationHandlers<
  operations,
  PathOperationId<paths, operations>,
  RequestContext<ForumPrincipal>
>;

const postNotFound = () =>
  new ApiProblem(404, "NOT_FOUND", "Post not found.", {
    field: "post_id",
    hint: "Check the post id; list posts with GET /api/v1/posts.",
  });

/** Offset paging: one extra row tells whether more follow. */
function page<T>(rows: T[], limit: number, offset: number) {
  const items = rows.slice(0, limit);
  return { items, count: items.length, has_more: rows.length > limit, next_offset: offset + items.length };
}

export function createForumHandlers(repository: ForumRepository, clock: Clock): ForumHandlers {
  return {
    async listPosts({ query }, { principal }) {
      const limit = withSpecDefault(query.limit, "limit");
      const offset = withSpecDefault(query.offset, "offset");
      const rows = await repository.listPosts(
        principal.agentId,
        withSpecDefault(query.sort, "sort"),
        limit + 1,
        offset,
      );
      const { items, ...paging } = page(rows, limit, offset);
      return { status: 200, body: { success: true, posts: items, ...paging } };
    },

    async getPost({ path }, { principal }) {
      const post = await repository.findPost(principal.agentId, path.post_id);
      if (!post) {
        throw postNotFound();
      }
      return { status: 200, body: { success: true, post } };
    },

    async createPost({ body }, { principal }) {
      const communityId = body.community_id ?? DEFAULT_COMMUNITY.id;
      const community = await repository.findCommunity(principal.agentId, communityId);
      if (!community) {
        throw new ApiProblem(404, "NOT_FOUND", "Community not found.", {
          field: "community_id",
          hint: `Omit community_id to post in ${DEFAULT_COMMUNITY.name} (${DEFAULT_COMMUNITY.id}).`,
        });
      }
      const now = clock.now();
      const post = await repository.createPost({
        postId: newUuid(),
        tenantId: principal.agentId,
        communityId,
        authorId: principal.agentId,
        title: body.title,
        content: body.content,
        url: body.url ?? null,
        hotRank: hotRank(0, 0, now),
        createdAt: isoTimestamp(now),
      });
      return { status: 201, body: { success: true, post } };
    },

    async listComments({ path, query }, { principal }) {
      const limit = withSpecDefault(query.limit, "limit");
      const offset = withSpecDefault(query.offset, "offset");
      const rows = await repository.listComments(principal.agentId, path.post_id, limit + 1, offset);
      if (!rows) {
        throw postNotFound();
      }
      const { items, ...paging } = page(rows, limit, offset);
      return { status: 200, body: { success: true, comments: items, ...paging } };
    },

    async createComment({ path, body }, { principal }) {
      const result = await repository.createComment({
        commentId: newUuid(),
        tenantId: principal.agentId,
        postId: path.post_id,
        parentId: body.parent_id ?? null,
        authorId: principal.agentId,
        content: body.content,
        createdAt: isoTimestamp(clock.now()),
      });
      if ("missing" in result) {
        throw result.missing === "post"
          ? postNotFound()
          : new ApiProblem(404, "NOT_FOUND", "Parent comment not found.", {
              field: "parent_id",
              hint: "Send the id of a comment on the same post, or omit parent_id for a top-level comment.",
            });
      }
      return { status: 201, body: { success: true, comment: result.created } };
    },

    async votePost({ path, body }, { principal }) {
      const outcome = await repository.vote(
        principal.agentId,
        path.post_id,
        principal.agentId,
        body.direction,
        isoTimestamp(clock.now()),
        (upvotes, downvotes, createdAt) => hotRank(upvotes, downvotes, Date.parse(createdAt)),
      );
      if (!outcome) {
        throw postNotFound();
      }
      return { status: 200, body: { success: true, ...outcome } };
    },
  };
}
