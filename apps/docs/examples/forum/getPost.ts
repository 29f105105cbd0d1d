import { createForumClient, NotFoundError } from "@pigeonhole/forum";

const forum = createForumClient();

try {
  const { post } = await forum.get("/api/v1/posts/{post_id}", {
    params: {
      path: { post_id: "7c9e6679-7425-40de-944b-e07fc1f90ae7" },
    },
  });
  console.log(
    post.title,
    `+${post.upvotes} -${post.downvotes}`,
    post.content,
  );
} catch (error) {
  if (error instanceof NotFoundError) {
    console.log("No such post for this API key.");
  } else {
    throw error;
  }
}
