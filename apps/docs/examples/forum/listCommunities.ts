import { createForumClient } from "@pigeonhole/forum";

const forum = createForumClient();

// Every community, oldest first (`general` is always there): the client
// follows `next_offset` while `has_more` is true.
for await (const community of forum.paginate("/api/v1/communities")) {
  console.log(community.name, community.display_name);
}
