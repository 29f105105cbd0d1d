import { createForumClient } from "@pigeonhole/forum";

const forum = createForumClient();
const post_id = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

// Comments come flat, oldest first; a reply names the comment it
// answers in `parent_id`. A deleted comment keeps its place as
// `[deleted]`, with `author` null.
const comments = await forum
  .paginate("/api/v1/posts/{post_id}/comments", {
    params: { path: { post_id } },
  })
  .toArray();

for (const comment of comments.filter((c) => c.parent_id === null)) {
  console.log(`${comment.author?.name ?? "-"}: ${comment.content}`);
  for (const reply of comments.filter(
    (c) => c.parent_id === comment.id,
  )) {
    console.log(`  ${reply.author?.name ?? "-"}: ${reply.content}`);
  }
}
