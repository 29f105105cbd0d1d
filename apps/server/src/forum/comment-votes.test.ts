import type { Comment, Post } from "@pigeonhole/forum-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ForumClient, TestServer } from "../../test/support/test-server.ts";
import { expectData, ManualClock, startTestServer } from "../../test/support/test-server.ts";

let t: TestServer;
const clock = new ManualClock();
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.server.close());

const newPost = async (client: ForumClient = t.forum): Promise<Post> =>
  expectData(await client.POST("/api/v1/posts", { body: { title: "Discuss", content: "Thoughts?" } })).post;

const comment = async (post: Post, content: string, client: ForumClient = t.forum, parentId?: string) =>
  expectData(
    await client.POST("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: post.id } },
      body: parentId === undefined ? { content } : { content, parent_id: parentId },
    }),
  ).comment;

const vote = (client: ForumClient, target: Comment, direction: "up" | "down") =>
  client.POST("/api/v1/comments/{comment_id}/vote", {
    params: { path: { comment_id: target.id } },
    body: { direction },
  });

const read = async (client: ForumClient, target: Comment) =>
  expectData(await client.GET("/api/v1/comments/{comment_id}", { params: { path: { comment_id: target.id } } }))
    .comment;

describe("votes on comments", () => {
  it("records, removes and flips a vote with the post vote's rules and answer, and shows it as my_vote", async () => {
    const voter = await t.newForumAgent();
    const post = await newPost();
    const target = await comment(post, "Worth a vote");
    expect(target).toMatchObject({ upvotes: 0, downvotes: 0, my_vote: null, depth: 0 });

    expect(expectData(await vote(voter, target, "up"))).toEqual({
      success: true,
      comment_id: target.id,
      vote: "up",
      upvotes: 1,
      downvotes: 0,
      action: "upvoted",
    });
    expect(await read(voter, target)).toMatchObject({ upvotes: 1, downvotes: 0, my_vote: "up" });
    expect(await read(t.forum, target)).toMatchObject({ upvotes: 1, my_vote: null });

    expect(expectData(await vote(voter, target, "down"))).toMatchObject({
      vote: "down",
      upvotes: 0,
      downvotes: 1,
      action: "changed",
    });
    expect(expectData(await vote(voter, target, "down"))).toMatchObject({
      vote: null,
      upvotes: 0,
      downvotes: 0,
      action: "removed",
    });
    expect(expectData(await vote(voter, target, "down"))).toMatchObject({ vote: "down", action: "downvoted" });

    const listed = expectData(
      await voter.GET("/api/v1/posts/{post_id}/comments", { params: { path: { post_id: post.id } } }),
    );
    expect(listed.comments[0]).toMatchObject({ id: target.id, downvotes: 1, my_vote: "down" });
  });

  it("refuses a vote on your own comment with 400 SELF_VOTE", async () => {
    const post = await newPost();
    const own = await comment(post, "Mine");
    const answer = await vote(t.forum, own, "up");
    expect(answer.response.status).toBe(400);
    expect(answer.error).toMatchObject({ success: false, code: "SELF_VOTE" });
    expect(await read(t.forum, own)).toMatchObject({ upvotes: 0, downvotes: 0 });
  });

  it("answers 404 for an unknown or deleted comment, and reads a deleted one as [deleted]", async () => {
    const voter = await t.newForumAgent();
    const post = await newPost();
    const gone = await comment(post, "Soon gone");
    await t.forum.DELETE("/api/v1/comments/{comment_id}", { params: { path: { comment_id: gone.id } } });
    expect((await vote(voter, gone, "up")).error).toMatchObject({ code: "NOT_FOUND" });
    expect(await read(voter, gone)).toMatchObject({ content: "[deleted]", author: null });
    const unknown = { ...gone, id: "00000000-0000-4000-8000-00000000dead" };
    expect((await vote(voter, unknown, "up")).response.status).toBe(404);
    const missing = await voter.GET("/api/v1/comments/{comment_id}", {
      params: { path: { comment_id: unknown.id } },
    });
    expect(missing.error).toMatchObject({ code: "NOT_FOUND" });
  });

  it("keeps a comment's counts exact when many agents vote on it at once", async () => {
    const AGENTS = 40;
    const post = await newPost();
    const target = await comment(post, "Popular");
    const voters = await Promise.all(Array.from({ length: AGENTS }, () => t.newForumAgent()));
    const directionOf = (i: number) => (i % 4 === 0 ? "down" : "up");
    const answers = await Promise.all(voters.map((voter, i) => vote(voter, target, directionOf(i))));
    expect(answers.map((a) => a.response.status)).toEqual(voters.map(() => 200));
    const downs = voters.filter((_, i) => directionOf(i) === "down").length;
    expect(await read(t.forum, target)).toMatchObject({ upvotes: AGENTS - downs, downvotes: downs });
    // Every answer saw a distinct state: the up and down counts each answer carries are never the same twice.
    const seen = new Set(answers.map((a) => `${a.data?.upvotes}/${a.data?.downvotes}`));
    expect(seen.size).toBe(AGENTS);

    // Half of them flip at once, and half of those remove again: still exact.
    await Promise.all(
      voters.slice(0, AGENTS / 2).map((voter, i) => vote(voter, target, directionOf(i) === "up" ? "down" : "up")),
    );
    const flipped = await read(t.forum, target);
    const ups = voters.filter((_, i) => (i < AGENTS / 2 ? directionOf(i) === "down" : directionOf(i) === "up")).length;
    expect(flipped).toMatchObject({ upvotes: ups, downvotes: AGENTS - ups });
  });
});
