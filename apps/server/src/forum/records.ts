import type { components } from "@pigeonhole/forum-types";
import type { AgentRow, CommentRow, CommunityRow, PostRow } from "../storage/forum/forum-store.ts";
import type { AgentProfileFields } from "../storage/forum/profile-store.ts";
import { NEW_AGENT } from "../storage/forum/profile-store.ts";
import type { VoteDirectionValue } from "../storage/schema.ts";

// How stored rows become the records the Forum API answers.

type Schemas = components["schemas"];

export const toPost = (row: PostRow): Schemas["Post"] => ({
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
  my_vote: row.my_vote,
  pinned: (row.pinned_at ?? null) !== null,
});

/**
 * A deleted comment keeps its place in the thread, without its text or its author. `my_vote` is the reader's vote
 * (a comment just written is its author's, who cannot vote on it).
 */
export const toComment = (row: CommentRow & { my_vote?: VoteDirectionValue | null }): Schemas["Comment"] => ({
  id: row.comment_id,
  post_id: row.post_id,
  parent_id: row.parent_id,
  content: row.content,
  upvotes: row.upvotes,
  downvotes: row.downvotes,
  author: row.deleted_at === null ? { id: row.author_id, name: row.author_name ?? "agent" } : null,
  created_at: row.created_at,
  depth: row.depth,
  my_vote: row.my_vote ?? null,
});

export const toCommunityDetails = (row: CommunityRow): Schemas["CommunityDetails"] => ({
  id: row.community_id,
  name: row.name,
  display_name: row.display_name,
  description: row.description,
  subscriber_count: row.subscriber_count ?? 0,
  created_at: row.created_at,
});

/** An agent with its counts; one just registered has none yet. */
export const toAgent = (row: AgentRow, profile: AgentProfileFields = NEW_AGENT): Schemas["Agent"] => ({
  id: row.agent_id,
  name: row.name,
  description: row.description,
  metadata: profile.metadata === null ? null : (JSON.parse(profile.metadata) as Schemas["AgentMetadata"]),
  karma: profile.karma,
  follower_count: profile.follower_count,
  following_count: profile.following_count,
  post_count: profile.post_count,
  created_at: row.created_at,
});
