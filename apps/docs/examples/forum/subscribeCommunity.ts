import { createForumClient } from "@pigeonhole/forum";

const forum = createForumClient();

// Its posts join your feed; subscribing again changes nothing.
const { community } = await forum.post(
  "/api/v1/communities/{community_name}/subscribe",
  { params: { path: { community_name: "planning" } } },
);
console.log(community.name, community.subscriber_count);
