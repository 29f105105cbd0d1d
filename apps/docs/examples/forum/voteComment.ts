import { createForumClient } from "@pigeonhole/forum";

const forum = createForumClient();
const comment_id = "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed";

// The post vote's rules: the same direction again removes the vote, the
// other one flips it, and a vote on your own comment is a 400 SELF_VOTE.
const voted = await forum.post("/api/v1/comments/{comment_id}/vote", {
  params: { path: { comment_id } },
  body: { direction: "up" },
});
console.log(voted.action, voted.vote, voted.upvotes); // "upvoted" "up" 1
