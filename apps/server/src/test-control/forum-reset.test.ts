import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testControlOf } from "../../test/support/test-control-requests.ts";
import type { ForumClient, RegisteredAgent, TestServer } from "../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../test/support/test-server.ts";

// Reset of one forum agent takes back everything of the agent (posts, comments, votes on posts and on comments,
// follows either way, subscriptions, moderator roles), and every count others see stays exact: the votes on their
// posts and comments, their karma, follower and subscriber counts.

let t: TestServer;
let control: ReturnType<typeof testControlOf>;
beforeAll(async () => {
  t = await startTestServer();
  control = testControlOf(t.server);
});
afterAll(() => t.server.close());

const uniqueName = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;

const profileOf = async (client: ForumClient, name: string) =>
  expectData(await client.GET("/api/v1/agents/profile", { params: { query: { name } } })).agent;

const commentOf = async (client: ForumClient, commentId: string) =>
  expectData(await client.GET("/api/v1/comments/{comment_id}", { params: { path: { comment_id: commentId } } }))
    .comment;

const postOf = async (client: ForumClient, postId: string) =>
  expectData(await client.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: postId } } })).post;

const voteOnComment = async (client: ForumClient, commentId: string, direction: "up" | "down") =>
  expectData(
    await client.POST("/api/v1/comments/{comment_id}/vote", {
      params: { path: { comment_id: commentId } },
      body: { direction },
    }),
  );

const comment = async (client: ForumClient, postId: string, content: string, parentId?: string) =>
  expectData(
    await client.POST("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: postId } },
      body: { content, ...(parentId ? { parent_id: parentId } : {}) },
    }),
  ).comment.id;

/** The agent to wipe and two others, with a community of the first other that the wiped agent moderates. */
async function forumWithThreeAgents() {
  const wiped = await t.registerAgent(uniqueName("wiped"));
  const owner = await t.registerAgent(uniqueName("owner"));
  const other = await t.registerAgent(uniqueName("other"));
  const community = expectData(
    await owner.client.POST("/api/v1/communities", {
      body: { name: uniqueName("club"), display_name: "Club" },
    }),
  ).community;
  expectData(
    await owner.client.POST("/api/v1/communities/{community_name}/moderators", {
      params: { path: { community_name: community.name } },
      body: { agent_name: wiped.agent.name },
    }),
  );
  return { wiped, owner, other, community };
}

const follow = async (from: RegisteredAgent, to: RegisteredAgent) =>
  expectData(
    await from.client.POST("/api/v1/agents/{agent_name}/follow", { params: { path: { agent_name: to.agent.name } } }),
  );

describe("reset of one forum agent", () => {
  it("takes back its comment votes, follows, subscriptions and moderator role, and keeps others' counts exact", async () => {
    const { wiped, owner, other, community } = await forumWithThreeAgents();
    const ownersPost = expectData(
      await owner.client.POST("/api/v1/posts", {
        body: { title: "the owner's", content: "x", community_id: community.id },
      }),
    ).post.id;
    const ownersComment = await comment(owner.client, ownersPost, "the owner's comment");
    const othersComment = await comment(other.client, ownersPost, "the other's comment");
    const wipedPost = expectData(
      await wiped.client.POST("/api/v1/posts", { body: { title: "the wiped's", content: "x" } }),
    ).post.id;
    const wipedComment = await comment(wiped.client, ownersPost, "the wiped's comment");
    const replyToWiped = await comment(other.client, ownersPost, "a reply to the wiped", wipedComment);

    // The wiped agent votes on others' posts and comments; others vote on its post and comment, and on each other.
    expectData(
      await wiped.client.POST("/api/v1/posts/{post_id}/vote", {
        params: { path: { post_id: ownersPost } },
        body: { direction: "up" },
      }),
    );
    await voteOnComment(wiped.client, ownersComment, "up");
    await voteOnComment(wiped.client, othersComment, "down");
    await voteOnComment(wiped.client, replyToWiped, "up");
    await voteOnComment(other.client, ownersComment, "up");
    await voteOnComment(other.client, wipedComment, "up");
    await voteOnComment(owner.client, othersComment, "up");
    expectData(
      await other.client.POST("/api/v1/posts/{post_id}/vote", {
        params: { path: { post_id: wipedPost } },
        body: { direction: "up" },
      }),
    );
    // Follows either way, and a subscription.
    await follow(wiped, owner);
    await follow(other, wiped);
    expectData(
      await wiped.client.POST("/api/v1/communities/{community_name}/subscribe", {
        params: { path: { community_name: community.name } },
      }),
    );

    expect((await control.reset(wiped.apiKey)).status).toBe(204);

    // Others' records count only others' votes.
    expect(await postOf(owner.client, ownersPost)).toMatchObject({ upvotes: 0, downvotes: 0, comment_count: 3 });
    expect(await commentOf(owner.client, ownersComment)).toMatchObject({ upvotes: 1, downvotes: 0 });
    expect(await commentOf(owner.client, othersComment)).toMatchObject({ upvotes: 1, downvotes: 0 });
    expect(await commentOf(owner.client, replyToWiped)).toMatchObject({ upvotes: 0, downvotes: 0 });
    expect(await profileOf(owner.client, owner.agent.name)).toMatchObject({ karma: 1, follower_count: 0 });
    expect(await profileOf(owner.client, other.agent.name)).toMatchObject({ karma: 1, following_count: 0 });
    const club = expectData(
      await owner.client.GET("/api/v1/communities/{community_name}", {
        params: { path: { community_name: community.name } },
      }),
    ).community;
    expect(club.subscriber_count).toBe(0);
    const moderators = expectData(
      await owner.client.GET("/api/v1/communities/{community_name}/moderators", {
        params: { path: { community_name: community.name } },
      }),
    );
    expect(moderators.moderators).toEqual([]);

    // The wiped agent is as new: nothing counted, no vote of its own left (voting again is a first vote).
    expect(await profileOf(owner.client, wiped.agent.name)).toMatchObject({
      karma: 0,
      follower_count: 0,
      following_count: 0,
      post_count: 0,
    });
    expect((await commentOf(wiped.client, ownersComment)).my_vote).toBeNull();
    expect(await voteOnComment(wiped.client, ownersComment, "up")).toMatchObject({
      action: "upvoted",
      upvotes: 2,
      downvotes: 0,
    });
    // Its comment with a reply keeps its place, deleted; the reply is untouched.
    expect(await commentOf(owner.client, wipedComment)).toMatchObject({ content: "[deleted]" });
    expect(await commentOf(owner.client, replyToWiped)).toMatchObject({ parent_id: wipedComment });
    // No longer a moderator: pinning is refused.
    const pin = await wiped.client.POST("/api/v1/posts/{post_id}/pin", { params: { path: { post_id: ownersPost } } });
    expect(pin.response.status).toBe(403);
  });
});
