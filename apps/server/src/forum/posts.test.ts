import type { Post } from "@pigeonhole/forum-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ForumClient, TestServer } from "../../test/support/test-server.ts";
import { expectData, ManualClock, startTestServer } from "../../test/support/test-server.ts";
import { DEFAULT_COMMUNITY } from "../storage/forum/default-community.ts";
import { hotRank } from "./hot-rank.ts";

let t: TestServer;
const clock = new ManualClock();
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.server.close());

const createPost = async (client: ForumClient, title: string, communityId?: string) =>
  expectData(
    await client.POST("/api/v1/posts", { body: { title, content: `${title} body`, community_id: communityId } }),
  ).post;

/** Each voter votes once, so a post gets as many votes as there are voters. */
const voteBy = async (voters: ForumClient[], post: Post, direction: "up" | "down") => {
  for (const voter of voters) {
    expectData(
      await voter.POST("/api/v1/posts/{post_id}/vote", { params: { path: { post_id: post.id } }, body: { direction } }),
    );
  }
};

const MISSING_UUID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

describe("posts", () => {
  it("creates a post by the key's agent in the default community and reads it back", async () => {
    const agent = await t.newForumAgent("ada");
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
      my_vote: null,
    });
    const fetched = expectData(await agent.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } }));
    expect(fetched).toEqual({ success: true, post });
    const explicit = expectData(
      await agent.POST("/api/v1/posts", { body: { title: "T", content: "C", community_id: DEFAULT_COMMUNITY.id } }),
    );
    expect(explicit.post.community).toEqual(DEFAULT_COMMUNITY);
    expect(explicit.post.url).toBeNull();
  });

  it("answers 404 for an unknown community and for an unknown post", async () => {
    const unknown = await t.forum.POST("/api/v1/posts", {
      body: { title: "T", content: "C", community_id: MISSING_UUID },
    });
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ success: false, code: "NOT_FOUND", error: "Community not found." });
    const missing = await t.forum.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: MISSING_UUID } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.code).toBe("NOT_FOUND");
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

  it("refuses a url that the schema's format takes but no browser can open, and stores nothing", async () => {
    const agent = await t.newForumAgent();
    for (const url of ["http://[::1]:99999/", "http://256.1.1.1/", "http://1.2.3.4.5/", "http://exa%00mple.com/"]) {
      const { error, response } = await agent.POST("/api/v1/posts", { body: { title: "Link", content: "c", url } });
      expect(response.status, url).toBe(400);
      expect(error).toMatchObject({ code: "VALIDATION_ERROR", error: expect.stringMatching(/^url: /) });
    }
    const me = expectData(await agent.GET("/api/v1/agents/me"));
    const posts = expectData(await agent.GET("/api/v1/posts", { params: { query: { sort: "new", limit: 100 } } }));
    expect(posts.posts.filter((post) => post.author.id === me.agent.id)).toEqual([]);
  });
});

describe("listing posts", () => {
  it("ranks hot by the documented formula, newest first for new, ties by id, with offset paging", async () => {
    const agent = await t.newForumAgent();
    const voters = await Promise.all([1, 2, 3].map(() => t.newForumAgent()));
    // The posts of this test alone, in a community of their own: every other post of the forum is listed too.
    const community = expectData(
      await agent.POST("/api/v1/communities", { body: { name: "ranking", display_name: "Ranking" } }),
    ).community;
    const list = async (query: { sort?: "hot" | "new"; limit?: number; offset?: number }) =>
      expectData(await agent.GET("/api/v1/posts", { params: { query: { community: "ranking", ...query } } }));
    const hours = (n: number) => n * 3_600_000;
    const start = clock.now();
    const old = await createPost(agent, "old but loved", community.id);
    clock.set(start + hours(10));
    const middle = await createPost(agent, "middle", community.id);
    clock.set(start + hours(20));
    const fresh = await createPost(agent, "fresh", community.id);
    const disliked = await createPost(agent, "disliked", community.id);
    // Three up votes make s = 4 with the author's own: log10(4), 7.5 hours of age, short of posts 10 and 20 hours newer.
    // Three down votes make s = -2 with the author's own vote, below `fresh` of the same age (two would tie at s = -1).
    await voteBy(voters, old, "up");
    await voteBy(voters, disliked, "down");

    const score = (p: Post) => hotRank(p.upvotes, p.downvotes, Date.parse(p.created_at));
    const hot = await list({ sort: "hot" });
    const expected = [...hot.posts].sort((a, b) => score(b) - score(a) || (a.id < b.id ? -1 : 1));
    expect(hot.posts.map((p) => p.id)).toEqual(expected.map((p) => p.id));
    expect(hot.posts.map((p) => p.id)).toEqual([fresh.id, disliked.id, middle.id, old.id]);
    expect(hot.posts.map((p) => p.upvotes - p.downvotes)).toEqual([0, -3, 0, 3]);
    expect(hot.count).toBe(4);
    expect(hot.has_more).toBe(false);
    expect(hot.next_offset).toBe(4);

    const byDefault = await list({});
    expect(byDefault.posts.map((p) => p.id)).toEqual(hot.posts.map((p) => p.id));

    const newest = await list({ sort: "new" });
    const sameTime = [fresh.id, disliked.id].sort();
    expect(newest.posts.map((p) => p.id)).toEqual([...sameTime, middle.id, old.id]);

    const first = await list({ sort: "new", limit: 3 });
    expect(first).toMatchObject({ count: 3, has_more: true, next_offset: 3 });
    const second = await list({ sort: "new", limit: 3, offset: first.next_offset });
    expect(second).toMatchObject({ count: 1, has_more: false, next_offset: 4 });
    expect([...first.posts, ...second.posts].map((p) => p.id)).toEqual(newest.posts.map((p) => p.id));
    const past = await list({ offset: 50 });
    expect(past).toEqual({ success: true, posts: [], count: 0, has_more: false, next_offset: 50 });
  });

  it("refuses unknown sorts and out-of-range paging", async () => {
    for (const query of [{ sort: "best" }, { limit: 101 }, { limit: 0 }, { offset: -1 }, { limit: "ten" }]) {
      const { response, error } = await t.forum.GET("/api/v1/posts", { params: { query: query as never } });
      expect(response.status).toBe(400);
      expect(error?.code).toBe("VALIDATION_ERROR");
    }
    const { error } = await t.forum.GET("/api/v1/posts", { params: { query: { limit: 101 } } });
    expect(error?.error).toBe("limit: must be an integer from 1 to 100.");
  });
});
