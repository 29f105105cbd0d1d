import { createForumClient } from "@pigeonhole/forum";

const forum = createForumClient();

// Answers 204: the post goes back to its place in the community's order.
await forum.delete("/api/v1/posts/{post_id}/pin", {
  params: { path: { post_id: "7c9e6679-7425-40de-944b-e07fc1f90ae7" } },
});
