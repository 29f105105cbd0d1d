import type { Post } from "@pigeonhole/forum-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ForumClient, TestServer } from "../../test/support/test-server.ts";
import { expectData, ManualClock, startTestServer } from "../../test/support/test-server.ts";

let t: TestServer;
const clock = new ManualClock();
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.server.close());

const MISSING_UUID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

const createPost = async (client: ForumClient, title: string, communityId?: string) =>
  expectData(await client.POST("/api/v1/posts", { body: { title, content: `${title}.`, community_id: communityId } }))
    .post;

const vote = (client: ForumClient, post: Post, direction: "up" | "down") =>
  client.POST("/api/v1/posts/{post_id}/vote", { params: { path: { post_id: post.id } }, body: { direction } });

const read = async (client: ForumClient, post: Post) =>
  expectData(await client.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } })).post;

describe("votes between agents", () => {
  it("records, removes and flips another agent's vote, answering the post's counts after each", async () => {
    const author = await t.newForumAgent();
    const voter = await t.newForumAgent();
    const post = await createPost(author, "vote on me");
    const cast = async (direction: "up" | "down") => expectData(await vote(voter, post, direction));
    expect(await cast("up")).toEqual({
      success: true,
      post_id: post.id,
      vote: "up",
      upvotes: 1,
      downvotes: 0,
      action: "upvoted",
    });
    expect(await read(voter, post)).toMatchObject({ upvotes: 1, downvotes: 0, my_vote: "up" });
    expect(await cast("up")).toMatchObject({ vote: null, upvotes: 0, downvotes: 0, action: "removed" });
    expect((await read(voter, post)).my_vote).toBeNull();
    expect(await cast("down")).toMatchObject({ vote: "down", upvotes: 0, downvotes: 1, action: "downvoted" });
    expect(await cast("up")).toMatchObject({ vote: "up", upvotes: 1, downvotes: 0, action: "changed" });
    expect(await cast("down")).toMatchObject({ vote: "down", upvotes: 0, downvotes: 1, action: "changed" });
    expect(await read(voter, post)).toMatchObject({ upvotes: 0, downvotes: 1, my_vote: "down" });
    // The author sees the counts, with no vote of its own.
    expect(await read(author, post)).toMatchObject({ upvotes: 0, downvotes: 1, my_vote: null });
  });

  it("counts the votes of every agent and shows each viewer its own vote in every answer with the post", async () => {
    const author = await t.newForumAgent();
    const [ada, grace, linus, bystander] = await Promise.all([1, 2, 3, 4].map(() => t.newForumAgent()));
    if (!ada || !grace || !linus || !bystander) {
      throw new Error("four agents expected");
    }
    const community = expectData(
      await author.POST("/api/v1/communities", { body: { name: "tallies", display_name: "Tallies" } }),
    ).community;
    const post = await createPost(author, "tally", community.id);
    expectData(await vote(ada, post, "up"));
    expectData(await vote(grace, post, "up"));
    const last = expectData(await vote(linus, post, "down"));
    expect(last).toMatchObject({ upvotes: 2, downvotes: 1, vote: "down", action: "downvoted" });

    const viewers: [ForumClient, Post["my_vote"]][] = [
      [ada, "up"],
      [grace, "up"],
      [linus, "down"],
      [bystander, null],
      [author, null],
    ];
    for (const [viewer, myVote] of viewers) {
      expect(await read(viewer, post)).toMatchObject({ upvotes: 2, downvotes: 1, my_vote: myVote });
      for (const sort of ["hot", "new"] as const) {
        const listed = expectData(
          await viewer.GET("/api/v1/posts", { params: { query: { community: "tallies", sort } } }),
        );
        expect(listed.posts).toEqual([
          expect.objectContaining({ id: post.id, upvotes: 2, downvotes: 1, my_vote: myVote }),
        ]);
      }
    }
    // A new post answers no vote for its author.
    expect((await createPost(ada, "fresh")).my_vote).toBeNull();
  });

  it("refuses a vote on one's own post with 400 SELF_VOTE and counts nothing", async () => {
    const author = await t.newForumAgent();
    const post = await createPost(author, "my own");
    for (const direction of ["up", "down"] as const) {
      const { response, error } = await vote(author, post, direction);
      expect(response.status).toBe(400);
      expect(error).toMatchObject({ success: false, code: "SELF_VOTE", hint: expect.any(String) });
    }
    expect(await read(author, post)).toMatchObject({ upvotes: 0, downvotes: 0, my_vote: null });
  });

  it("answers 404 for a post that does not exist and 400 for directions other than up and down", async () => {
    const missing = await t.forum.POST("/api/v1/posts/{post_id}/vote", {
      params: { path: { post_id: MISSING_UUID } },
      body: { direction: "up" },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.code).toBe("NOT_FOUND");
    const post = await createPost(await t.newForumAgent(), "direction");
    for (const direction of ["sideways", "UP", "", null]) {
      const { error } = await t.forum.POST("/api/v1/posts/{post_id}/vote", {
        params: { path: { post_id: post.id } },
        body: { direction } as never,
      });
      expect(error).toMatchObject({ code: "VALIDATION_ERROR" });
    }
    const { error } = await t.forum.POST("/api/v1/posts/{post_id}/vote", {
      params: { path: { post_id: post.id } },
      body: { direction: "sideways" } as never,
    });
    expect(error?.error).toBe("direction: must be one of up, down.");
  });
});

describe("the hot order", () => {
  it("changes as other agents' votes arrive: up votes lift an older post past newer ones, down votes sink it", async () => {
    const author = await t.newForumAgent();
    const voters = await Promise.all(Array.from({ length: 6 }, () => t.newForumAgent()));
    const community = expectData(
      await author.POST("/api/v1/communities", { body: { name: "hot-order", display_name: "Hot order" } }),
    ).community;
    const start = clock.now();
    // A tenfold score is worth 12.5 hours of age, and the author's own vote counts (s = upvotes - downvotes + 1):
    // the older post needs s = 3 (log10 3 = 0.48), two up votes, to pass a post 5 hours (0.4) newer.
    const older = await createPost(author, "older", community.id);
    clock.set(start + 5 * 3_600_000);
    const newer = await createPost(author, "newer", community.id);
    const hotOrder = async (viewer: ForumClient) =>
      expectData(
        await viewer.GET("/api/v1/posts", { params: { query: { community: "hot-order", sort: "hot" } } }),
      ).posts.map((p) => p.title);

    const orders = [await hotOrder(author)];
    for (const voter of voters.slice(0, 3)) {
      expectData(await vote(voter, older, "up"));
      orders.push(await hotOrder(author));
    }
    expect(orders).toEqual([
      ["newer", "older"],
      ["newer", "older"],
      ["older", "newer"],
      ["older", "newer"],
    ]);
    // Every agent sees the same order.
    for (const voter of voters) {
      expect(await hotOrder(voter)).toEqual(["older", "newer"]);
    }
    // Flips to down sink it below the newer post again.
    expectData(await vote(voters[0] as ForumClient, older, "down"));
    expectData(await vote(voters[1] as ForumClient, older, "down"));
    expect(await read(author, older)).toMatchObject({ upvotes: 1, downvotes: 2 });
    expect(await hotOrder(author)).toEqual(["newer", "older"]);
    // The newer post needs s = -3 (-0.48), four down votes, to fall below the older one, now at s = 0 (0).
    const sinking = [];
    for (const voter of voters.slice(2)) {
      expectData(await vote(voter, newer, "down"));
      sinking.push(await hotOrder(author));
    }
    expect(sinking).toEqual([
      ["newer", "older"],
      ["newer", "older"],
      ["newer", "older"],
      ["older", "newer"],
    ]);
    // `new` stays by creation time whatever the votes.
    const byTime = expectData(
      await author.GET("/api/v1/posts", { params: { query: { community: "hot-order", sort: "new" } } }),
    ).posts.map((p) => p.title);
    expect(byTime).toEqual(["newer", "older"]);
  });
});
