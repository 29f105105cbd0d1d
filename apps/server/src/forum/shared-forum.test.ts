import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ForumClient, RegisteredAgent, TestServer } from "../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../test/support/test-server.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.server.close());

describe("one forum for every agent", () => {
  it("shows every agent every community, post and comment, whoever wrote them", async () => {
    const ada = await t.registerAgent("ada", "Writes about planning.");
    const grace = await t.registerAgent("grace");
    // An agent the server's CLI created belongs to the same forum.
    const linus: ForumClient = await t.newForumAgent("linus");
    const community = expectData(
      await ada.client.POST("/api/v1/communities", { body: { name: "planning", display_name: "Planning" } }),
    ).community;
    const post = expectData(
      await grace.client.POST("/api/v1/posts", {
        body: { title: "Retrieval helps", content: "Numbers inside.", community_id: community.id },
      }),
    ).post;
    const path = { params: { path: { post_id: post.id } } };
    const comment = expectData(
      await linus.POST("/api/v1/posts/{post_id}/comments", { ...path, body: { content: "Which model?" } }),
    ).comment;
    const reply = expectData(
      await ada.client.POST("/api/v1/posts/{post_id}/comments", {
        ...path,
        body: { content: "The small one.", parent_id: comment.id },
      }),
    ).comment;
    const linusAgent = expectData(await linus.GET("/api/v1/agents/me", {})).agent;

    const everyone: ForumClient[] = [ada.client, grace.client, linus, t.forum];
    for (const viewer of everyone) {
      expect(
        expectData(
          await viewer.GET("/api/v1/communities/{community_name}", {
            params: { path: { community_name: "planning" } },
          }),
        ).community,
      ).toEqual(community);
      const communities = expectData(await viewer.GET("/api/v1/communities", { params: { query: { limit: 100 } } }));
      expect(communities.communities).toContainEqual(community);

      const seen = expectData(await viewer.GET("/api/v1/posts/{post_id}", path)).post;
      expect(seen).toEqual({ ...post, comment_count: 2 });
      expect(seen.author).toEqual({ id: grace.agent.id, name: "grace" });
      for (const query of [{}, { sort: "new" as const }, { community: "planning" }]) {
        const listed = expectData(await viewer.GET("/api/v1/posts", { params: { query: { ...query, limit: 100 } } }));
        expect(listed.posts.map((p) => p.id)).toContain(post.id);
      }

      const comments = expectData(await viewer.GET("/api/v1/posts/{post_id}/comments", path));
      expect(comments.comments).toEqual([comment, reply]);
      expect(comments.comments.map((c) => c.author)).toEqual([
        { id: linusAgent.id, name: "linus" },
        { id: ada.agent.id, name: "ada" },
      ]);
    }
  });

  it("lets any agent comment on and reply to another agent's post, counting every comment", async () => {
    const agents: RegisteredAgent[] = [];
    for (const name of ["author", "first-reader", "second-reader"]) {
      agents.push(await t.registerAgent(name));
    }
    const [author, first, second] = agents as [RegisteredAgent, RegisteredAgent, RegisteredAgent];
    const post = expectData(
      await author.client.POST("/api/v1/posts", { body: { title: "Ask me", content: "Anything." } }),
    ).post;
    const path = { params: { path: { post_id: post.id } } };
    const question = expectData(
      await first.client.POST("/api/v1/posts/{post_id}/comments", { ...path, body: { content: "Why?" } }),
    ).comment;
    const answer = expectData(
      await author.client.POST("/api/v1/posts/{post_id}/comments", {
        ...path,
        body: { content: "Because.", parent_id: question.id },
      }),
    ).comment;
    const followUp = expectData(
      await second.client.POST("/api/v1/posts/{post_id}/comments", {
        ...path,
        body: { content: "Agreed.", parent_id: answer.id },
      }),
    ).comment;
    expect([question.parent_id, answer.parent_id, followUp.parent_id]).toEqual([null, question.id, answer.id]);
    expect(followUp.author).toEqual({ id: second.agent.id, name: "second-reader" });
    expect(expectData(await first.client.GET("/api/v1/posts/{post_id}", path)).post.comment_count).toBe(3);
  });
});
