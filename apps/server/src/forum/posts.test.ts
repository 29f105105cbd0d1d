import type { Post } from "@pigeonhole/forum-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ForumClient, TestServer } from "../testing/test-server.ts";
import { expectData, ManualClock, startTestServer } from "../testing/test-server.ts";
import { DEFAULT_COMMUNITY } from "./default-community.ts";
import { hotRank } from "./hot-rank.ts";

let t: TestServer;
const clock = new ManualClock();
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.server.close());

const createPost = async (client: ForumClient, title: string, extra: { url?: string | null; content?: string } = {}) =>
  expectData(
    await client.POST("/api/v1/posts", { body: { title, content: extra.content ?? `${title} body`, url: extra.url } }),
  ).post;

const vote = async (client: ForumClient, post: Post, direction: "up" | "down", times = 1) => {
  for (let i = 0; i < times; i++) {
    expectData(
      await client.POST("/api/v1/posts/{post_id}/vote", {
        params: { path: { post_id: post.id } },
        body: { direction },
      }),
    );
  }
};

describe("posts", () => {
  it("creates a post by the key's agent in the default community and reads it back", async () => {
    const agent = await t.newForumTenant("ada");
    const { response, data } = await agent.POST("/api/v1/posts", {
      body: { title: "Benchmarks", content: "Results below.", url: "https://example.com/report" },
    });
    expect(response.status).toBe(201);
    const post = data?.post as Post;
    expect(post).toMatchObject({
      title: "Benchmarks",
      content: "Results below.",
      url: "https://example.com/report",
      upvotes: 0,
      downvotes: 0,
      comment_count: 0,
      author: { name: "ada" },
      community: DEFAULT_COMMUNITY,
    });
    const fetched = expectData(await agent.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } }));
    expect(fetched).toEqual({ success: true, post });
    const explicit = expectData(
      await agent.POST("/api/v1/posts", { body: { title: "T", content: "C", community_id: DEFAULT_COMMUNITY.id } }),
    );
    expect(explicit.post.community).toEqual(DEFAULT_COMMUNITY);
    expect(explicit.post.url).toBeNull();
  });

  it("answers 404 for an unknown community and for another tenant's post", async () => {
    const unknown = await t.forum.POST("/api/v1/posts", {
      body: { title: "T", content: "C", community_id: "7c9e6679-7425-40de-944b-e07fc1f90ae7" },
    });
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ success: false, code: "NOT_FOUND", error: "Community not found." });

    const post = await createPost(t.forum, "mine");
    const stranger = await t.newForumTenant();
    const foreign = await stranger.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } });
    expect(foreign.response.status).toBe(404);
    expect(foreign.error?.code).toBe("NOT_FOUND");
    expect(expectData(await stranger.GET("/api/v1/posts", {})).posts).toEqual([]);
    const foreignVote = await stranger.POST("/api/v1/posts/{post_id}/vote", {
      params: { path: { post_id: post.id } },
      body: { direction: "up" },
    });
    expect(foreignVote.response.status).toBe(404);
  });

  it("validates titles, contents, urls and unknown fields with VALIDATION_ERROR and a hint", async () => {
    const invalid = async (body: unknown) => {
      const { error, response } = await t.forum.POST("/api/v1/posts", { body: body as never });
      expect(response.status).toBe(400);
      expect(error?.code).toBe("VALIDATION_ERROR");
      expect(error?.hint).toEqual(expect.any(String));
      return error?.error;
    };
    expect(await invalid({ title: "x".repeat(301), content: "c" })).toBe("title: must be 1 to 300 characters.");
    expect(await invalid({ title: "   ", content: "c" })).toMatch(/^title: /);
    expect(await invalid({ title: "t", content: "" })).toBe("content: must be 1 to 40000 characters.");
    expect(await invalid({ title: "t", content: "c".repeat(40_001) })).toBe("content: must be 1 to 40000 characters.");
    expect(await invalid({ title: "t", content: "c", url: "ftp://example.com" })).toMatch(/^url: /);
    expect(await invalid({ title: "t", content: "c", submolt: "general" })).toBe("submolt: is not an accepted field.");
    expect(await invalid({ content: "c" })).toBe("title: is required.");
    expect(await invalid({ title: 5, content: "c" })).toBe("title: must be a string.");
    expect(await invalid({ title: "t", content: "c", community_id: "general" })).toMatch(/^community_id: /);
    const nonUuid = await t.forum.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: "not-a-uuid" } } });
    expect(nonUuid.response.status).toBe(400);
    expect(nonUuid.error?.code).toBe("VALIDATION_ERROR");
  });
});

describe("listing posts", () => {
  it("ranks hot by the documented formula, newest first for new, ties by id, with offset paging", async () => {
    const agent = await t.newForumTenant();
    const hours = (n: number) => n * 3_600_000;
    const start = clock.now();
    const old = await createPost(agent, "old but loved");
    clock.set(start + hours(10));
    const middle = await createPost(agent, "middle");
    clock.set(start + hours(20));
    const fresh = await createPost(agent, "fresh");
    const disliked = await createPost(agent, "disliked");
    // One vote per agent and post: other agents of the same tenant do not exist, so the counts come from flips.
    await vote(agent, old, "up");
    await vote(agent, disliked, "down");

    const score = (p: Post) => hotRank(p.upvotes, p.downvotes, Date.parse(p.created_at));
    const hot = expectData(await agent.GET("/api/v1/posts", { params: { query: { sort: "hot" } } }));
    const expected = [...hot.posts].sort((a, b) => score(b) - score(a) || (a.id < b.id ? -1 : 1));
    expect(hot.posts.map((p) => p.id)).toEqual(expected.map((p) => p.id));
    expect(hot.posts.at(-1)?.id).toBe(old.id);
    expect(hot.count).toBe(4);
    expect(hot.has_more).toBe(false);
    expect(hot.next_offset).toBe(4);

    const byDefault = expectData(await agent.GET("/api/v1/posts", {}));
    expect(byDefault.posts.map((p) => p.id)).toEqual(hot.posts.map((p) => p.id));

    const newest = expectData(await agent.GET("/api/v1/posts", { params: { query: { sort: "new" } } }));
    const sameTime = [fresh.id, disliked.id].sort();
    expect(newest.posts.map((p) => p.id)).toEqual([...sameTime, middle.id, old.id]);

    const first = expectData(await agent.GET("/api/v1/posts", { params: { query: { sort: "new", limit: 3 } } }));
    expect(first).toMatchObject({ count: 3, has_more: true, next_offset: 3 });
    const second = expectData(
      await agent.GET("/api/v1/posts", { params: { query: { sort: "new", limit: 3, offset: first.next_offset } } }),
    );
    expect(second).toMatchObject({ count: 1, has_more: false, next_offset: 4 });
    expect([...first.posts, ...second.posts].map((p) => p.id)).toEqual(newest.posts.map((p) => p.id));
    const past = expectData(await agent.GET("/api/v1/posts", { params: { query: { offset: 50 } } }));
    expect(past).toEqual({ success: true, posts: [], count: 0, has_more: false, next_offset: 50 });
  });

  it("refuses unknown sorts and out-of-range paging", async () => {
    for (const query of [{ sort: "top" }, { limit: 101 }, { limit: 0 }, { offset: -1 }, { limit: "ten" }]) {
      const { response, error } = await t.forum.GET("/api/v1/posts", { params: { query: query as never } });
      expect(response.status).toBe(400);
      expect(error?.code).toBe("VALIDATION_ERROR");
    }
    const { error } = await t.forum.GET("/api/v1/posts", { params: { query: { limit: 101 } } });
    expect(error?.error).toBe("limit: must be an integer from 1 to 100.");
  });
});

describe("votes", () => {
  it("records, removes and flips a vote, answering the post's counts after each", async () => {
    const agent = await t.newForumTenant();
    const post = await createPost(agent, "vote on me");
    const cast = async (direction: "up" | "down") =>
      expectData(
        await agent.POST("/api/v1/posts/{post_id}/vote", {
          params: { path: { post_id: post.id } },
          body: { direction },
        }),
      );
    expect(await cast("up")).toEqual({
      success: true,
      post_id: post.id,
      vote: "up",
      upvotes: 1,
      downvotes: 0,
      action: "upvoted",
    });
    expect(await cast("up")).toMatchObject({ vote: null, upvotes: 0, downvotes: 0, action: "removed" });
    expect(await cast("down")).toMatchObject({ vote: "down", upvotes: 0, downvotes: 1, action: "downvoted" });
    expect(await cast("up")).toMatchObject({ vote: "up", upvotes: 1, downvotes: 0, action: "changed" });
    const fetched = expectData(await agent.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } }));
    expect(fetched.post).toMatchObject({ upvotes: 1, downvotes: 0 });
  });

  it("refuses directions other than up and down", async () => {
    const post = await createPost(t.forum, "direction");
    const { error } = await t.forum.POST("/api/v1/posts/{post_id}/vote", {
      params: { path: { post_id: post.id } },
      body: { direction: "sideways" } as never,
    });
    expect(error).toMatchObject({ code: "VALIDATION_ERROR", error: "direction: must be one of up, down." });
  });
});
