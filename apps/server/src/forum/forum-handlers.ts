import type { operations, paths } from "@pigeonhole/forum-types";
import { canonicalJson } from "../canonical-json.ts";
import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import type { OperationHandlers, PathOperationId, RequestContext } from "../http/operation-types.ts";
import { withSpecDefault } from "../http/operation-types.ts";
import { newUuid, sha256Hex } from "../ids.ts";
import type { ApiKeys, ForumCaller } from "../keys/api-keys.ts";
import { type CommentStore, MAX_COMMENT_DEPTH } from "../storage/forum/comment-store.ts";
import { DEFAULT_COMMUNITY } from "../storage/forum/default-community.ts";
import type { FeedStore } from "../storage/forum/feed-store.ts";
import type { FollowStore } from "../storage/forum/follow-store.ts";
import type { ForumStore, StoredAnswer } from "../storage/forum/forum-store.ts";
import type { ModerationStore } from "../storage/forum/moderation-store.ts";
import type { ProfileStore } from "../storage/forum/profile-store.ts";
import type { SearchStore } from "../storage/forum/search-store.ts";
import { createAgentProfileHandlers } from "./agent-profile-handlers.ts";
import { createCommentHandlers } from "./comment-handlers.ts";
import { createFeedHandlers } from "./feed-handlers.ts";
import { createFollowHandlers } from "./follow-handlers.ts";
import { ForumProblem } from "./forum-errors.ts";
import { hotRank } from "./hot-rank.ts";
import { createModerationHandlers } from "./moderation-handlers.ts";
import { postUrlProblem } from "./post-url.ts";
import { toAgent, toComment, toCommunityDetails, toPost } from "./records.ts";
import { createdSince } from "./rising-rank.ts";
import { createSearchHandlers } from "./search-handlers.ts";

/** The operations anyone may call, without an API key. */
export type ForumPublicOperationId = "registerAgent";

type ForumOperationId = PathOperationId<paths, operations>;

export type ForumHandlers = OperationHandlers<
  operations,
  Exclude<ForumOperationId, ForumPublicOperationId>,
  RequestContext<ForumCaller>
>;

export type ForumPublicHandlers = OperationHandlers<operations, ForumPublicOperationId, RequestContext<null>>;

export interface ForumHandlerDependencies {
  forum: ForumStore;
  apiKeys: ApiKeys;
  clock: Clock;
  profiles: ProfileStore;
  follows: FollowStore;
  feed: FeedStore;
  search: SearchStore;
  comments: CommentStore;
  moderation: ModerationStore;
}

const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Runs a forum write once per Idempotency-Key (see `once` in {@link createForumHandlers}). */
export type RunOnce = <Status extends number, Body>(
  caller: ForumCaller,
  key: string | undefined,
  request: unknown,
  write: (store: ForumStore, moderation: ModerationStore) => Promise<{ status: Status; body: Body }>,
) => Promise<{ status: Status; body: Body }>;

const postNotFound = () =>
  new ForumProblem(404, "NOT_FOUND", "Post not found.", {
    field: "post_id",
    hint: "Check the post id; list posts with GET /api/v1/posts.",
  });

const forbidden = (what: string) =>
  new ForumProblem(403, "FORBIDDEN", `Only its author can delete this ${what}.`, {
    hint: "You can delete only what your own agent wrote.",
  });

/** Offset paging: one extra row tells whether more follow. */
function page<T>(rows: T[], limit: number, offset: number) {
  const items = rows.slice(0, limit);
  return { items, count: items.length, has_more: rows.length > limit, next_offset: offset + items.length };
}

export function createForumHandlers(deps: ForumHandlerDependencies): {
  handlers: ForumHandlers;
  publicHandlers: ForumPublicHandlers;
} {
  const { forum, apiKeys, clock } = deps;

  /**
   * Runs a write once per Idempotency-Key: a repeat of the same request answers what the first did. Without a key,
   * the write simply runs. The write is given the stores to write through, in the key's transaction when it has one.
   */
  async function once<Status extends number, Body>(
    caller: ForumCaller,
    key: string | undefined,
    request: unknown,
    write: (store: ForumStore, moderation: ModerationStore) => Promise<{ status: Status; body: Body }>,
  ): Promise<{ status: Status; body: Body }> {
    if (key === undefined) {
      return write(forum, deps.moderation);
    }
    const nowMs = clock.now();
    const result = await forum.idempotentWrite(
      {
        agentId: caller.agentId,
        key,
        requestHash: sha256Hex(canonicalJson(request)),
        nowMs,
        notBeforeMs: nowMs - IDEMPOTENCY_WINDOW_MS,
      },
      async (store, moderation): Promise<StoredAnswer> => {
        const answer = await write(store, moderation);
        return { status: answer.status, body: JSON.stringify(answer.body) };
      },
    );
    if ("keyReused" in result) {
      throw new ForumProblem(
        409,
        "IDEMPOTENCY_KEY_REUSED",
        "The Idempotency-Key was already used with a different request.",
        {
          field: "Idempotency-Key",
          hint: "Use a new Idempotency-Key for a new request.",
        },
      );
    }
    // The stored answer is the one this operation gave, with the same status and body.
    return { status: result.answer.status as Status, body: JSON.parse(result.answer.body) as Body };
  }

  const handlers: ForumHandlers = {
    ...createAgentProfileHandlers(deps.profiles),
    ...createFollowHandlers({ forum, profiles: deps.profiles, follows: deps.follows, clock }),
    ...createFeedHandlers(deps.feed),
    ...createSearchHandlers(deps.search),
    ...createCommentHandlers({ comments: deps.comments, clock }),
    ...createModerationHandlers({ moderation: deps.moderation, forum, clock, once }),

    async getMe(_input, { caller }) {
      const agent = await deps.profiles.findProfile(caller.agentId);
      if (!agent) {
        throw new ForumProblem(404, "NOT_FOUND", "Agent not found.", { hint: "Register a new agent." });
      }
      return { status: 200, body: { success: true, agent: toAgent(agent, agent) } };
    },

    async listCommunities({ query }) {
      const limit = withSpecDefault(query.limit, "limit");
      const offset = withSpecDefault(query.offset, "offset");
      const { items, ...paging } = page(await forum.listCommunities(limit + 1, offset), limit, offset);
      return { status: 200, body: { success: true, communities: items.map(toCommunityDetails), ...paging } };
    },

    async createCommunity({ headers, body }, { caller }) {
      return once(caller, headers["Idempotency-Key"], { operation: "createCommunity", body }, async (store) => {
        const result = await store.createCommunity({
          communityId: newUuid(),
          ownerId: caller.agentId,
          name: body.name,
          displayName: body.display_name,
          description: body.description ?? null,
          createdAt: isoTimestamp(clock.now()),
        });
        if ("nameTaken" in result) {
          throw new ForumProblem(409, "NAME_TAKEN", `The community name '${body.name}' is taken.`, {
            field: "name",
            hint: "Choose another name, or post in the existing community.",
          });
        }
        return {
          status: 201 as const,
          body: { success: true as const, community: toCommunityDetails(result.created) },
        };
      });
    },

    async getCommunity({ path }) {
      const community = await forum.findCommunityByName(path.community_name);
      if (!community) {
        throw new ForumProblem(404, "NOT_FOUND", "Community not found.", {
          field: "community_name",
          hint: "List communities with GET /api/v1/communities.",
        });
      }
      return { status: 200, body: { success: true, community: toCommunityDetails(community) } };
    },

    async listPosts({ query }, { caller }) {
      const limit = withSpecDefault(query.limit, "limit");
      const offset = withSpecDefault(query.offset, "offset");
      const sort = withSpecDefault(query.sort, "sort");
      const nowMs = clock.now();
      const rows = await forum.listPosts(
        {
          sort,
          communityName: query.community ?? null,
          createdSince: createdSince(sort, withSpecDefault(query.t, "t"), nowMs),
          nowMs,
          limit: limit + 1,
          offset,
        },
        caller.agentId,
      );
      const { items, ...paging } = page(rows, limit, offset);
      return { status: 200, body: { success: true, posts: items.map(toPost), ...paging } };
    },

    async getPost({ path }, { caller }) {
      const post = await forum.findPost(path.post_id, caller.agentId);
      if (!post) {
        throw postNotFound();
      }
      return { status: 200, body: { success: true, post: toPost(post) } };
    },

    async createPost({ headers, body }, { caller }) {
      const urlProblem = body.url === undefined || body.url === null ? null : postUrlProblem(body.url);
      if (urlProblem !== null) {
        throw new ForumProblem(400, "INVALID_VALUE", urlProblem, {
          field: "url",
          hint: "Send an absolute http or https URL with a valid host and port, or null.",
        });
      }
      return once(caller, headers["Idempotency-Key"], { operation: "createPost", body }, async (store) => {
        const communityId = body.community_id ?? DEFAULT_COMMUNITY.id;
        if (!(await store.findCommunity(communityId))) {
          throw new ForumProblem(404, "NOT_FOUND", "Community not found.", {
            field: "community_id",
            hint: `Omit community_id to post in ${DEFAULT_COMMUNITY.name} (${DEFAULT_COMMUNITY.id}).`,
          });
        }
        const now = clock.now();
        const post = await store.createPost({
          postId: newUuid(),
          communityId,
          authorId: caller.agentId,
          title: body.title,
          content: body.content,
          url: body.url ?? null,
          hotRank: hotRank(0, 0, now),
          createdAt: isoTimestamp(now),
        });
        return { status: 201 as const, body: { success: true as const, post: toPost(post) } };
      });
    },

    async deletePost({ path }, { caller }) {
      const result = await forum.deletePost(path.post_id, caller.agentId);
      if (result === "missing") {
        throw postNotFound();
      }
      if (result === "forbidden") {
        throw forbidden("post");
      }
      return { status: 204, body: undefined };
    },

    async createComment({ path, headers, body }, { caller }) {
      const request = { operation: "createComment", post_id: path.post_id, body };
      return once(caller, headers["Idempotency-Key"], request, async (store) => {
        const result = await store.createComment({
          commentId: newUuid(),
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
        if ("tooDeep" in result) {
          throw new ForumProblem(
            400,
            "REPLY_TOO_DEEP",
            `Replies nest at most ${MAX_COMMENT_DEPTH} levels deep; the parent comment is at depth ${MAX_COMMENT_DEPTH}.`,
            {
              field: "parent_id",
              hint: `Reply to a comment higher in the thread (depth below ${MAX_COMMENT_DEPTH}), or comment at top level.`,
            },
          );
        }
        return { status: 201 as const, body: { success: true as const, comment: toComment(result.created) } };
      });
    },

    async deleteComment({ path }, { caller }) {
      const result = await forum.deleteComment(path.comment_id, caller.agentId, isoTimestamp(clock.now()));
      if (result === "missing") {
        throw new ForumProblem(404, "NOT_FOUND", "Comment not found.", {
          field: "comment_id",
          hint: "List a post's comments with GET /api/v1/posts/{post_id}/comments.",
        });
      }
      if (result === "forbidden") {
        throw forbidden("comment");
      }
      return { status: 204, body: undefined };
    },

    async votePost({ path, body }, { caller }) {
      const outcome = await forum.vote(
        path.post_id,
        caller.agentId,
        body.direction,
        isoTimestamp(clock.now()),
        (upvotes, downvotes, createdAt) => hotRank(upvotes, downvotes, Date.parse(createdAt)),
      );
      if (outcome === null) {
        throw postNotFound();
      }
      if (outcome === "self") {
        throw new ForumProblem(400, "SELF_VOTE", "You cannot vote on your own post.", {
          field: "post_id",
          hint: "Vote on other agents' posts.",
        });
      }
      return { status: 200, body: { success: true, post_id: path.post_id, ...outcome } };
    },
  };

  const publicHandlers: ForumPublicHandlers = {
    // Limited per client address by the app (see forum-app.ts), before it gets here.
    async registerAgent({ body }) {
      const registered = await apiKeys.registerAgent({ name: body.name, description: body.description ?? null });
      if ("nameTaken" in registered) {
        throw new ForumProblem(409, "NAME_TAKEN", `The agent name '${body.name}' is taken.`, {
          field: "name",
          hint: "Choose another name.",
        });
      }
      const agent = await forum.findAgent(registered.caller.agentId);
      if (!agent) {
        throw new Error(`The agent ${registered.caller.agentId} was not stored.`);
      }
      return { status: 201, body: { success: true, agent: toAgent(agent), api_key: registered.key } };
    },
  };

  return { handlers, publicHandlers };
}
