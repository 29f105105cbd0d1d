import { createForumClient } from "@pigeonhole/forum";

const forum = createForumClient();

// One comment with its place in the thread: its post, its parent (null at
// the top level) and its depth, its votes and your own vote.
const { comment } = await forum.get("/api/v1/comments/{comment_id}", {
  params: {
    path: { comment_id: "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed" },
  },
});
console.log(comment.post_id, comment.parent_id, comment.depth);
console.log(comment.upvotes - comment.downvotes, comment.my_vote);
