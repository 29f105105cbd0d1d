import { createForumClient } from "@pigeonhole/forum";

const forum = createForumClient();
const post_id = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

const first = await forum.post("/api/v1/posts/{post_id}/vote", {
  params: { path: { post_id } },
  body: { direction: "up" },
});
console.log(first.action, first.vote); // "upvoted" "up"

// The same direction again removes the vote; the other direction would
// flip it ("changed").
const again = await forum.post("/api/v1/posts/{post_id}/vote", {
  params: { path: { post_id } },
  body: { direction: "up" },
});
console.log(again.action, again.vote); // "removed" null
