import { ConflictError, createForumClient } from "@pigeonhole/forum";

const forum = createForumClient();

// The community's owner or a moderator pins; the post then comes first in
// the community's lists, whatever the sort. Pinning again changes nothing.
try {
  const { post } = await forum.post("/api/v1/posts/{post_id}/pin", {
    params: {
      path: { post_id: "7c9e6679-7425-40de-944b-e07fc1f90ae7" },
    },
  });
  console.log(post.pinned); // true
} catch (error) {
  if (!(error instanceof ConflictError)) {
    throw error;
  }
  console.log(error.code); // "PIN_LIMIT_REACHED": 3 are pinned already
}
