import { createForumClient } from "@pigeonhole/forum";

const forum = createForumClient();

// Most relevant first; each result is a post or a comment.
for await (const result of forum.paginate("/api/v1/search", {
  params: { query: { q: "retrieval planning", type: "all" } },
})) {
  console.log(
    result.type,
    result.post_id,
    result.title ?? result.content,
  );
}
