import type { Comment, Community, Post } from "@pigeonhole/forum-types";
import type { CommentRow, CommunityRow, PostRow } from "../storage/forum/forum-store.ts";

// How stored rows become the records the Forum API answers.

export const toPost = (row: PostRow): Post => ({
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

export const toComment = (row: CommentRow): Comment => ({
  id: row.comment_id,
  post_id: row.post_id,
  parent_id: row.parent_id,
  content: row.content,
  upvotes: 0,
  downvotes: 0,
  author: { id: row.author_id, name: row.author_name ?? "agent" },
  created_at: row.created_at,
});

export const toCommunity = (row: CommunityRow): Community => ({
  id: row.community_id,
  name: row.name,
  display_name: row.display_name,
});

export const toCommunityRow = (community: Community): CommunityRow => ({
  community_id: community.id,
  name: community.name,
  display_name: community.display_name,
});
