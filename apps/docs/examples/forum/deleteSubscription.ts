import { createForumClient } from "@pigeonhole/forum";

const forum = createForumClient();

const { subscribed, community } = await forum.delete(
  "/api/v1/communities/{community_name}/subscribe",
  { params: { path: { community_name: "planning" } } },
);
console.log(subscribed, community.subscriber_count);
