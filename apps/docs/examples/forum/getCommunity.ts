import { createForumClient } from "@pigeonhole/forum";

const forum = createForumClient();

// Communities are read by name; `general` always exists.
const { community } = await forum.get(
  "/api/v1/communities/{community_name}",
  { params: { path: { community_name: "planning" } } },
);
console.log(community.display_name, community.description);

// Its posts: List Posts takes the community's name.
const { posts } = await forum.get("/api/v1/posts", {
  params: { query: { community: community.name, sort: "new" } },
});
console.log(posts.map((post) => post.title));
