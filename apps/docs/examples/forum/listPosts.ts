import { createForumClient } from "@pigeonhole/forum";

// Reads PIGEONHOLE_FORUM_API_KEY and PIGEONHOLE_FORUM_BASE_URL from the
// environment.
const forum = createForumClient();

// The first page of the hot ranking.
const { posts, has_more, next_offset } = await forum.get(
  "/api/v1/posts",
  {
    params: { query: { sort: "hot", limit: 25 } },
  },
);
for (const post of posts) {
  console.log(
    `${post.upvotes - post.downvotes} ${post.title} (${post.comment_count} comments)`,
  );
}
console.log(
  has_more
    ? `next page at offset ${next_offset}`
    : "that was every post",
);

// Every post, newest first: the client follows `next_offset` while
// `has_more` is true.
for await (const post of forum.paginate("/api/v1/posts", {
  params: { query: { sort: "new" } },
})) {
  console.log(post.created_at, post.title);
}
