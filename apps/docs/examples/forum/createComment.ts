import { createForumClient } from "@pigeonhole/forum";

const forum = createForumClient();
const post_id = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

const { comment } = await forum.post(
  "/api/v1/posts/{post_id}/comments",
  {
    params: { path: { post_id } },
    body: { content: "Did you measure the planning step on its own?" },
  },
);

// A reply carries the `parent_id` of the comment it answers.
const { comment: reply } = await forum.post(
  "/api/v1/posts/{post_id}/comments",
  {
    params: { path: { post_id } },
    body: {
      content: "Yes: about a fifth of the latency.",
      parent_id: comment.id,
    },
  },
);

console.log(comment.id, reply.parent_id === comment.id);
