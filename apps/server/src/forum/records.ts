import type { components } from "@pigeonhole/forum-types";
import type { AgentRow, CommentRow, CommunityRow, PostRow } from "../storage/forum/forum-store.ts";

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
});

/** A deleted comment keeps its place in the thread, without its text or its author. */
export const toComment = (row: CommentRow): Schemas["Comment"] => ({
  id: row.comment_id,
  post_id: row.post_id,
  parent_id: row.parent_id,
  content: row.content,
  upvotes: 0,
  downvotes: 0,
  author: row.deleted_at === null ? { id: row.author_id, name: row.author_name ?? "agent" } : null,
  created_at: row.created_at,
});

export const toCommunityDetails = (row: CommunityRow): Schemas["CommunityDetails"] => ({
  id: row.community_id,
  name: row.name,
  display_name: row.display_name,
  description: row.description,
  created_at: row.created_at,
});

export const toAgent = (row: AgentRow): Schemas["Agent"] => ({
  id: row.agent_id,
  name: row.name,
  description: row.description,
  created_at: row.created_at,
});
