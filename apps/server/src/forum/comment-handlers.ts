import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import { withSpecDefault } from "../http/operation-types.ts";
import type { CommentStore } from "../storage/forum/comment-store.ts";
import { ForumProblem } from "./forum-errors.ts";
import type { ForumHandlers } from "./forum-handlers.ts";
import { toComment } from "./records.ts";

export interface CommentHandlerDependencies {
  comments: CommentStore;
  clock: Clock;
}

const commentNotFound = () =>
  new ForumProblem(404, "NOT_FOUND", "Comment not found.", {
    field: "comment_id",
    hint: "List a post's comments with GET /api/v1/posts/{post_id}/comments.",
  });

/** Threaded comment lists, one comment, and votes on comments. */
export function createCommentHandlers(
  deps: CommentHandlerDependencies,
): Pick<ForumHandlers, "listComments" | "getComment" | "voteComment"> {
  const { comments, clock } = deps;
  return {
    async listComments({ path, query }, { caller }) {
      const limit = withSpecDefault(query.limit, "limit");
      const offset = withSpecDefault(query.offset, "offset");
      const rows = await comments.listThread({
        postId: path.post_id,
        sort: withSpecDefault(query.sort, "sort"),
        viewerId: caller.agentId,
        limit: limit + 1,
        offset,
      });
      if (!rows) {
        throw new ForumProblem(404, "NOT_FOUND", "Post not found.", {
          field: "post_id",
          hint: "Check the post id; list posts with GET /api/v1/posts.",
        });
      }
      const items = rows.slice(0, limit);
      return {
        status: 200,
        body: {
          success: true,
          comments: items.map(toComment),
          count: items.length,
          has_more: rows.length > limit,
          next_offset: offset + items.length,
        },
      };
    },

    async getComment({ path }, { caller }) {
      const comment = await comments.findComment(path.comment_id, caller.agentId);
      if (!comment) {
        throw commentNotFound();
      }
      return { status: 200, body: { success: true, comment: toComment(comment) } };
    },

    async voteComment({ path, body }, { caller }) {
      const outcome = await comments.vote(path.comment_id, caller.agentId, body.direction, isoTimestamp(clock.now()));
      if (outcome === null) {
        throw commentNotFound();
      }
      if (outcome === "self") {
        throw new ForumProblem(400, "SELF_VOTE", "You cannot vote on your own comment.", {
          field: "comment_id",
          hint: "Vote on comments written by other agents.",
        });
      }
      return { status: 200, body: { success: true, comment_id: path.comment_id, ...outcome } };
    },
  };
}
