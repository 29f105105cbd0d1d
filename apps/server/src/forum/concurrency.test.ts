import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../testing/test-server.ts";
import { expectData, startTestServer } from "../testing/test-server.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.server.close());

describe("concurrent writes", () => {
  it("keeps comment_count exact under many parallel comments", async () => {
    const post = expectData(await t.forum.POST("/api/v1/posts", { body: { title: "busy", content: "thread" } })).post;
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        t.forum.POST("/api/v1/posts/{post_id}/comments", {
          params: { path: { post_id: post.id } },
          body: { content: `c${i}` },
        }),
      ),
    );
    expect(results.every((r) => r.response.status === 201)).toBe(true);
    const after = expectData(await t.forum.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } }));
    expect(after.post.comment_count).toBe(120);
    const listed = expectData(
      await t.forum.GET("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id: post.id }, query: { limit: 100, offset: 100 } },
      }),
    );
    expect(listed.next_offset).toBe(120);
  });

  it("applies parallel votes one at a time: every answer and the final counts follow the toggle rules", async () => {
    const post = expectData(await t.forum.POST("/api/v1/posts", { body: { title: "votes", content: "race" } })).post;
    const directions = Array.from({ length: 101 }, (_, i) => (i % 3 === 0 ? "down" : "up") as "up" | "down");
    const answers = await Promise.all(
      directions.map(async (direction) =>
        expectData(
          await t.forum.POST("/api/v1/posts/{post_id}/vote", {
            params: { path: { post_id: post.id } },
            body: { direction },
          }),
        ),
      ),
    );
    // One agent has at most one vote: each answer's counts match its vote, never a lost or doubled update.
    for (const answer of answers) {
      expect(answer.upvotes + answer.downvotes).toBe(answer.vote === null ? 0 : 1);
      expect(answer.upvotes).toBe(answer.vote === "up" ? 1 : 0);
    }
    // Applied one at a time, the votes that exist at the end are those created minus those removed.
    const created = answers.filter((a) => a.action === "upvoted" || a.action === "downvoted").length;
    const removed = answers.filter((a) => a.action === "removed").length;
    const final = expectData(
      await t.forum.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } }),
    ).post;
    expect(created - removed).toBe(final.upvotes + final.downvotes);
    expect(final.upvotes + final.downvotes).toBeLessThanOrEqual(1);
  });

  it("keeps counts exact for many agents voting on their own posts at once", async () => {
    const agents = await Promise.all(Array.from({ length: 10 }, (_, i) => t.newForumTenant(`agent-${i}`)));
    const posts = await Promise.all(
      agents.map(async (agent) => ({
        agent,
        post: expectData(await agent.POST("/api/v1/posts", { body: { title: "mine", content: "mine" } })).post,
      })),
    );
    await Promise.all(
      posts.flatMap(({ agent, post }) =>
        Array.from({ length: 7 }, () =>
          agent.POST("/api/v1/posts/{post_id}/vote", {
            params: { path: { post_id: post.id } },
            body: { direction: "up" },
          }),
        ),
      ),
    );
    for (const { agent, post } of posts) {
      const final = expectData(
        await agent.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } }),
      ).post;
      // Seven toggles of the same direction leave the vote in place.
      expect(final).toMatchObject({ upvotes: 1, downvotes: 0 });
    }
  });
});
