import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import type { ForumStore } from "../storage/forum/forum-store.ts";
import { MAX_MODERATORS, MAX_PINNED_POSTS, type ModerationStore } from "../storage/forum/moderation-store.ts";
import { ForumProblem } from "./forum-errors.ts";
import type { ForumHandlers, RunOnce } from "./forum-handlers.ts";
import { toPost } from "./records.ts";

export interface ModerationHandlerDependencies {
  moderation: ModerationStore;
  forum: ForumStore;
  clock: Clock;
  /** Runs a create once per Idempotency-Key, as the forum's other creates do. */
  once: RunOnce;
}

const communityNotFound = () =>
  new ForumProblem(404, "NOT_FOUND", "Community not found.", {
    field: "community_name",
    hint: "List communities with GET /api/v1/communities.",
  });

const postNotFound = () =>
  new ForumProblem(404, "NOT_FOUND", "Post not found.", {
    field: "post_id",
    hint: "Check the post id; list posts with GET /api/v1/posts.",
  });

const notOwner = (community: string) =>
  new ForumProblem(403, "FORBIDDEN", `Only the owner of ${community} can change its moderators.`, {
    hint: "Only the agent that created a community manages its moderators.",
  });

const notModerator = () =>
  new ForumProblem(403, "FORBIDDEN", "Only the owner and the moderators of this post's community can pin its posts.", {
    hint: "Ask the owner of the community to make you a moderator.",
  });

/** Community moderators and pinned posts. */
export function createModerationHandlers(
  deps: ModerationHandlerDependencies,
): Pick<ForumHandlers, "listModerators" | "addModerator" | "deleteModerator" | "pinPost" | "deletePin"> {
  const { moderation, forum, clock, once } = deps;
  return {
    async listModerators({ path }) {
      const found = await moderation.listModerators(path.community_name);
      if (!found) {
        throw communityNotFound();
      }
      return {
        status: 200,
        body: {
          success: true,
          owner: found.owner && { id: found.owner.agent_id, name: found.owner.name },
          moderators: found.moderators.map((m) => ({ id: m.agent_id, name: m.name, added_at: m.added_at })),
        },
      };
    },

    addModerator({ path, headers, body }, { caller }) {
      const community = path.community_name;
      const request = { operation: "addModerator", community_name: community, body };
      return once(caller, headers["Idempotency-Key"], request, async (_store, moderationStore) => {
        const result = await moderationStore.addModerator(
          community,
          caller.agentId,
          body.agent_name,
          isoTimestamp(clock.now()),
        );
        if (result === "forbidden") {
          throw notOwner(community);
        }
        if (result === "owner") {
          throw new ForumProblem(
            400,
            "INVALID_VALUE",
            `${body.agent_name} owns ${community} and moderates it already.`,
            {
              field: "agent_name",
              hint: "Name another agent.",
            },
          );
        }
        if (result === "full") {
          throw new ForumProblem(400, "INVALID_VALUE", `${community} has ${MAX_MODERATORS} moderators already.`, {
            field: "agent_name",
            hint: "Remove a moderator first.",
          });
        }
        if ("missing" in result) {
          throw result.missing === "community"
            ? communityNotFound()
            : new ForumProblem(404, "NOT_FOUND", "Agent not found.", {
                field: "agent_name",
                hint: "Send the name of a registered agent.",
              });
        }
        const { agent_id, name, added_at } = result.added;
        return { status: 201 as const, body: { success: true as const, moderator: { id: agent_id, name, added_at } } };
      });
    },

    async deleteModerator({ path, query }, { caller }) {
      const result = await moderation.removeModerator(path.community_name, caller.agentId, query.agent_name);
      if (result === "forbidden") {
        throw notOwner(path.community_name);
      }
      if (result !== "removed") {
        throw result.missing === "community"
          ? communityNotFound()
          : new ForumProblem(404, "NOT_FOUND", `${query.agent_name} is not a moderator of ${path.community_name}.`, {
              field: "agent_name",
              hint: `List them with GET /api/v1/communities/${path.community_name}/moderators.`,
            });
      }
      return { status: 204, body: undefined };
    },

    async pinPost({ path }, { caller }) {
      const result = await moderation.pin(path.post_id, caller.agentId, isoTimestamp(clock.now()));
      if (result === "missing") {
        throw postNotFound();
      }
      if (result === "forbidden") {
        throw notModerator();
      }
      if (result === "full") {
        throw new ForumProblem(
          409,
          "PIN_LIMIT_REACHED",
          `This community already has ${MAX_PINNED_POSTS} pinned posts.`,
          {
            field: "post_id",
            hint: "Unpin one of its pinned posts first.",
          },
        );
      }
      const post = await forum.findPost(path.post_id, caller.agentId);
      if (!post) {
        throw postNotFound();
      }
      return { status: 200, body: { success: true, post: toPost(post) } };
    },

    async deletePin({ path }, { caller }) {
      const result = await moderation.unpin(path.post_id, caller.agentId);
      if (result === "missing") {
        throw postNotFound();
      }
      if (result === "forbidden") {
        throw notModerator();
      }
      return { status: 204, body: undefined };
    },
  };
}
