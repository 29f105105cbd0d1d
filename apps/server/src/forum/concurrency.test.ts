import type { Post } from "@pigeonhole/forum-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ForumClient, RegisteredAgent, TestServer } from "../../test/support/test-server.ts";
import { expectData, ManualClock, startTestServer } from "../../test/support/test-server.ts";
import { hotRank } from "./hot-rank.ts";

let t: TestServer;
const clock = new ManualClock();
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.server.close());

const AGENTS = 50;

const vote = async (client: ForumClient, post: Post, direction: "up" | "down") =>
  expectData(
    await client.POST("/api/v1/posts/{post_id}/vote", { params: { path: { post_id: post.id } }, body: { direction } }),
  );

const read = async (client: ForumClient, post: Post) =>
  expectData(await client.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } })).post;

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
    expect((await read(t.forum, post)).comment_count).toBe(120);
    const listed = expectData(
      await t.forum.GET("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id: post.id }, query: { limit: 100, offset: 100 } },
      }),
    );
    expect(listed.next_offset).toBe(120);
  });

  it("applies one agent's parallel votes one at a time: every answer and the final counts follow the toggle rules", async () => {
    const voter = await t.newForumAgent();
    const post = expectData(await t.forum.POST("/api/v1/posts", { body: { title: "votes", content: "race" } })).post;
    const directions = Array.from({ length: 101 }, (_, i) => (i % 3 === 0 ? "down" : "up") as "up" | "down");
    const answers = await Promise.all(directions.map((direction) => vote(voter, post, direction)));
    // One agent has at most one vote: each answer's counts match its vote, never a lost or doubled update.
    for (const answer of answers) {
      expect(answer.upvotes + answer.downvotes).toBe(answer.vote === null ? 0 : 1);
      expect(answer.upvotes).toBe(answer.vote === "up" ? 1 : 0);
    }
    // Applied one at a time, the votes that exist at the end are those created minus those removed.
    const created = answers.filter((a) => a.action === "upvoted" || a.action === "downvoted").length;
    const removed = answers.filter((a) => a.action === "removed").length;
    const final = await read(voter, post);
    expect(created - removed).toBe(final.upvotes + final.downvotes);
    expect(final.upvotes + final.downvotes).toBeLessThanOrEqual(1);
    expect(final.my_vote).toBe(final.upvotes === 1 ? "up" : final.downvotes === 1 ? "down" : null);
  });

  it(`keeps counts and hot ranks exact with ${AGENTS} agents voting and commenting on the same posts at once`, async () => {
    const author = await t.newForumAgent();
    const agents: RegisteredAgent[] = await Promise.all(
      Array.from({ length: AGENTS }, (_, i) => t.registerAgent(`crowd-${i}`)),
    );
    expect(new Set(agents.map((agent) => agent.agent.id)).size).toBe(AGENTS);
    const community = expectData(
      await author.POST("/api/v1/communities", { body: { name: "crowded", display_name: "Crowded" } }),
    ).community;
    const start = clock.now();
    const post = async (title: string, secondsLater: number) => {
      clock.set(start + secondsLater * 1000);
      return expectData(
        await author.POST("/api/v1/posts", { body: { title, content: title, community_id: community.id } }),
      ).post;
    };
    // `leader` ends with 50 up votes, `runnerUp`, 200 s newer, with 49: log10(50) - log10(49) is worth 395 s of age,
    // so `leader` ranks first, but a rank computed from one vote fewer would put it second.
    const leader = await post("leader", 0);
    const runnerUp = await post("runner-up", 200);
    const mixed = await post("mixed", 400);

    /** Every agent's vote on `mixed` at the end: flipped to down, up, or cast and removed. */
    const mixedVote = (i: number) => (i % 2 === 0 ? "down" : i % 4 === 1 ? "up" : null);
    await Promise.all(
      agents.map(async ({ client }, i) => {
        await vote(client, leader, "up");
        await vote(client, runnerUp, "up");
        if (i === AGENTS - 1) {
          expect(await vote(client, runnerUp, "up")).toMatchObject({ vote: null, action: "removed" });
        }
        if (i % 2 === 0) {
          await vote(client, mixed, "up");
          expect(await vote(client, mixed, "down")).toMatchObject({ vote: "down", action: "changed" });
        } else if (i % 4 === 1) {
          await vote(client, mixed, "up");
        } else {
          await vote(client, mixed, "down");
          expect(await vote(client, mixed, "down")).toMatchObject({ vote: null, action: "removed" });
        }
        for (const target of [leader, runnerUp]) {
          expectData(
            await client.POST("/api/v1/posts/{post_id}/comments", {
              params: { path: { post_id: target.id } },
              body: { content: `from crowd-${i}` },
            }),
          );
        }
      }),
    );

    const expectedMixed = {
      upvotes: agents.filter((_, i) => mixedVote(i) === "up").length,
      downvotes: agents.filter((_, i) => mixedVote(i) === "down").length,
    };
    expect(await read(author, leader)).toMatchObject({ upvotes: AGENTS, downvotes: 0, comment_count: AGENTS });
    expect(await read(author, runnerUp)).toMatchObject({ upvotes: AGENTS - 1, downvotes: 0, comment_count: AGENTS });
    expect(await read(author, mixed)).toMatchObject({ ...expectedMixed, comment_count: 0 });

    const hot = expectData(
      await author.GET("/api/v1/posts", { params: { query: { community: "crowded", sort: "hot" } } }),
    ).posts;
    expect(hot.map((p) => p.title)).toEqual(["leader", "runner-up", "mixed"]);
    const byRank = [...hot].sort(
      (a, b) =>
        hotRank(b.upvotes, b.downvotes, Date.parse(b.created_at)) -
        hotRank(a.upvotes, a.downvotes, Date.parse(a.created_at)),
    );
    expect(hot.map((p) => p.id)).toEqual(byRank.map((p) => p.id));

    const comments = expectData(
      await author.GET("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id: leader.id }, query: { limit: 100 } },
      }),
    ).comments;
    expect(new Set(comments.map((comment) => comment.author?.id))).toEqual(
      new Set(agents.map((agent) => agent.agent.id)),
    );

    // Each agent reads its own votes back.
    for (const [i, { client }] of agents.entries()) {
      const seen = expectData(
        await client.GET("/api/v1/posts", { params: { query: { community: "crowded", sort: "new" } } }),
      ).posts;
      expect(Object.fromEntries(seen.map((p) => [p.title, p.my_vote])), `crowd-${i}`).toEqual({
        leader: "up",
        "runner-up": i === AGENTS - 1 ? null : "up",
        mixed: mixedVote(i),
      });
    }
  });
});
