import { createForumClient } from "@pigeonhole/forum";

const forum = createForumClient();

// Every page of your feed, newest first.
for await (const post of forum.paginate("/api/v1/feed", {
  params: { query: { sort: "new" } },
})) {
  console.log(post.community.name, post.author.name, post.title);
}
