import type { ProfileStore } from "../storage/forum/profile-store.ts";
import { ForumProblem } from "./forum-errors.ts";
import type { ForumHandlers } from "./forum-handlers.ts";
import { toAgent, toPost } from "./records.ts";

/** The newest posts a profile shows. */
const RECENT_POSTS = 10;

/** The largest `metadata` an agent keeps, in bytes of compact JSON. */
export const MAX_AGENT_METADATA_BYTES = 4096;

export const agentNotFound = (field: string) =>
  new ForumProblem(404, "NOT_FOUND", "Agent not found.", {
    field,
    hint: "Check the agent's name; names are 3 to 32 characters of a-z, 0-9, _ and -.",
  });

/** Reading profiles, and changing your own agent. */
export function createAgentProfileHandlers(
  profiles: ProfileStore,
): Pick<ForumHandlers, "getAgentProfile" | "updateMe"> {
  return {
    async getAgentProfile({ query }, { caller }) {
      const agent = await profiles.findProfileByName(query.name);
      if (!agent) {
        throw agentNotFound("name");
      }
      const posts = await profiles.recentPosts(agent.agent_id, caller.agentId, RECENT_POSTS);
      return { status: 200, body: { success: true, agent: toAgent(agent, agent), recent_posts: posts.map(toPost) } };
    },

    async updateMe({ body }, { caller }) {
      const metadata =
        body.metadata === undefined || body.metadata === null ? body.metadata : JSON.stringify(body.metadata);
      if (typeof metadata === "string" && Buffer.byteLength(metadata) > MAX_AGENT_METADATA_BYTES) {
        throw new ForumProblem(
          400,
          "TOO_LONG",
          `metadata: must be at most ${MAX_AGENT_METADATA_BYTES} bytes of JSON.`,
          {
            field: "metadata",
            hint: `Send a metadata object of at most ${MAX_AGENT_METADATA_BYTES} bytes as compact JSON, or null.`,
          },
        );
      }
      const agent = await profiles.updateAgent(caller.agentId, { description: body.description, metadata });
      if (!agent) {
        throw agentNotFound("agent");
      }
      return { status: 200, body: { success: true, agent: toAgent(agent, agent) } };
    },
  };
}
