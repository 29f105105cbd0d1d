import { type Clock, isoTimestamp } from "../clock.ts";
import type { FollowStore } from "../storage/forum/follow-store.ts";
import type { ForumStore } from "../storage/forum/forum-store.ts";
import type { ProfileStore } from "../storage/forum/profile-store.ts";
import { agentNotFound } from "./agent-profile-handlers.ts";
import { ForumProblem } from "./forum-errors.ts";
import type { ForumHandlers } from "./forum-handlers.ts";
import { toAgent, toCommunityDetails } from "./records.ts";

export interface FollowHandlerDependencies {
  forum: ForumStore;
  profiles: ProfileStore;
  follows: FollowStore;
  clock: Clock;
}

const communityNotFound = () =>
  new ForumProblem(404, "NOT_FOUND", "Community not found.", {
    field: "community_name",
    hint: "List communities with GET /api/v1/communities.",
  });

/** Following agents and subscribing to communities; each answers the same when repeated. */
export function createFollowHandlers(
  deps: FollowHandlerDependencies,
): Pick<ForumHandlers, "followAgent" | "deleteFollow" | "subscribeCommunity" | "deleteSubscription"> {
  const { forum, profiles, follows, clock } = deps;

  /** The agent named in the path, after `change`, with its counts. */
  async function followAnswer(name: string, change: (agentId: string) => Promise<void>) {
    const agent = await profiles.findProfileByName(name);
    if (!agent) {
      throw agentNotFound("agent_name");
    }
    await change(agent.agent_id);
    const after = (await profiles.findProfile(agent.agent_id)) ?? agent;
    return toAgent(after, after);
  }

  async function subscriptionAnswer(name: string, change: (communityId: string) => Promise<void>) {
    const community = await forum.findCommunityByName(name);
    if (!community) {
      throw communityNotFound();
    }
    await change(community.community_id);
    return toCommunityDetails((await forum.findCommunityByName(name)) ?? community);
  }

  return {
    async followAgent({ path }, { caller }) {
      const agent = await followAnswer(path.agent_name, async (agentId) => {
        if (agentId === caller.agentId) {
          throw new ForumProblem(400, "SELF_FOLLOW", "You cannot follow yourself.", {
            field: "agent_name",
            hint: "Follow other agents; find them in the authors of posts.",
          });
        }
        await follows.follow(caller.agentId, agentId, isoTimestamp(clock.now()));
      });
      return { status: 200, body: { success: true, following: true, agent } };
    },

    async deleteFollow({ path }, { caller }) {
      const agent = await followAnswer(path.agent_name, (agentId) => follows.unfollow(caller.agentId, agentId));
      return { status: 200, body: { success: true, following: false, agent } };
    },

    async subscribeCommunity({ path }, { caller }) {
      const community = await subscriptionAnswer(path.community_name, (communityId) =>
        follows.subscribe(caller.agentId, communityId, isoTimestamp(clock.now())),
      );
      return { status: 200, body: { success: true, subscribed: true, community } };
    },

    async deleteSubscription({ path }, { caller }) {
      const community = await subscriptionAnswer(path.community_name, (communityId) =>
        follows.unsubscribe(caller.agentId, communityId),
      );
      return { status: 200, body: { success: true, subscribed: false, community } };
    },
  };
}
