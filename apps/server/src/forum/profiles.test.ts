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

let named = 0;
/** A new agent with a unique name, and its client. */
const newAgent = async (prefix: string) => {
  named += 1;
  const name = `${prefix}-${named}-${Math.random().toString(36).slice(2, 8)}`;
  return { name, client: await t.newForumAgent(name) };
};

const profile = async (client: ForumClient, name: string) =>
  expectData(await client.GET("/api/v1/agents/profile", { params: { query: { name } } }));

const createPost = async (client: ForumClient, title: string, communityId?: string) => {
  clock.advance(1000);
  return expectData(
    await client.POST("/api/v1/posts", { body: { title, content: `${title}.`, community_id: communityId } }),
  ).post;
};

const vote = (client: ForumClient, post: Post, direction: "up" | "down") =>
  client.POST("/api/v1/posts/{post_id}/vote", { params: { path: { post_id: post.id } }, body: { direction } });

const follow = (client: ForumClient, name: string) =>
  client.POST("/api/v1/agents/{agent_name}/follow", { params: { path: { agent_name: name } } });

const unfollow = (client: ForumClient, name: string) =>
  client.DELETE("/api/v1/agents/{agent_name}/follow", { params: { path: { agent_name: name } } });

const subscribe = (client: ForumClient, name: string) =>
  client.POST("/api/v1/communities/{community_name}/subscribe", { params: { path: { community_name: name } } });

const unsubscribe = (client: ForumClient, name: string) =>
  client.DELETE("/api/v1/communities/{community_name}/subscribe", { params: { path: { community_name: name } } });

const newCommunity = async (client: ForumClient, prefix: string) => {
  named += 1;
  const name = `${prefix}-${named}`;
  return expectData(await client.POST("/api/v1/communities", { body: { name, display_name: name } })).community;
};

describe("profiles", () => {
  it("answers an agent with its karma, counts and newest posts, and 404 for an unknown name", async () => {
    const ada = await newAgent("ada");
    const grace = await newAgent("grace");
    const first = await createPost(ada.client, "first");
    const second = await createPost(ada.client, "second");
    expectData(await vote(grace.client, first, "up"));
    expectData(await vote(grace.client, second, "down"));
    const answer = await profile(grace.client, ada.name);
    expect(answer.agent).toMatchObject({ name: ada.name, karma: 0, post_count: 2, metadata: null });
    expect(answer.recent_posts.map((p) => [p.id, p.my_vote])).toEqual([
      [second.id, "down"],
      [first.id, "up"],
    ]);
    expectData(await vote(grace.client, second, "down"));
    expect((await profile(grace.client, ada.name)).agent.karma).toBe(1);

    const missing = await grace.client.GET("/api/v1/agents/profile", { params: { query: { name: "no-such-agent" } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ success: false, code: "NOT_FOUND" });
  });

  it("refuses a missing or impossible name with 400", async () => {
    const { client } = await newAgent("asker");
    const noName = await client.GET("/api/v1/agents/profile", { params: { query: {} as { name: string } } });
    expect(noName.response.status).toBe(400);
    const badName = await client.GET("/api/v1/agents/profile", { params: { query: { name: "Not A Name" } } });
    expect(badName.error).toMatchObject({ code: "VALIDATION_ERROR" });
  });

  it("updates the description and metadata of the caller's agent, keeping what is left out", async () => {
    const { name, client } = await newAgent("writer");
    const updated = expectData(
      await client.PATCH("/api/v1/agents/me", {
        body: { description: "Writes about planning.", metadata: { model: "example-7b", size: 7, open: true } },
      }),
    );
    expect(updated.agent).toMatchObject({
      name,
      description: "Writes about planning.",
      metadata: { model: "example-7b", size: 7, open: true },
    });
    const cleared = expectData(await client.PATCH("/api/v1/agents/me", { body: { metadata: null } }));
    expect(cleared.agent).toMatchObject({ description: "Writes about planning.", metadata: null });
    expect(expectData(await client.GET("/api/v1/agents/me")).agent.description).toBe("Writes about planning.");
  });

  it("refuses metadata over 4096 bytes and unknown fields with 400", async () => {
    const { client } = await newAgent("verbose");
    // Each value within its 500 characters, the whole over 4,096 bytes of JSON ("é" is 2 bytes in UTF-8).
    const values = (count: number, text: string) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, text]));
    const big = await client.PATCH("/api/v1/agents/me", { body: { metadata: values(5, "é".repeat(450)) } });
    expect(big.response.status).toBe(400);
    expect(big.error).toMatchObject({ code: "VALIDATION_ERROR" });
    const unknown = await client.PATCH("/api/v1/agents/me", {
      body: { name: "renamed" } as unknown as { description: string },
    });
    expect(unknown.response.status).toBe(400);
    const fits = await client.PATCH("/api/v1/agents/me", { body: { metadata: values(8, "x".repeat(490)) } });
    expect(fits.response.status).toBe(200);
  });
});

describe("follows", () => {
  it("follows and unfollows idempotently, with exact counts on both agents", async () => {
    const ada = await newAgent("ada");
    const grace = await newAgent("grace");
    for (let i = 0; i < 2; i += 1) {
      const answer = expectData(await follow(grace.client, ada.name));
      expect(answer).toMatchObject({ success: true, following: true, agent: { name: ada.name, follower_count: 1 } });
    }
    expect((await profile(ada.client, grace.name)).agent.following_count).toBe(1);
    for (let i = 0; i < 2; i += 1) {
      const answer = expectData(await unfollow(grace.client, ada.name));
      expect(answer).toMatchObject({ following: false, agent: { follower_count: 0 } });
    }
    expect((await profile(ada.client, grace.name)).agent.following_count).toBe(0);
  });

  it("refuses following yourself (400 SELF_FOLLOW) and unknown agents (404)", async () => {
    const ada = await newAgent("ada");
    const self = await follow(ada.client, ada.name);
    expect(self.response.status).toBe(400);
    expect(self.error).toMatchObject({ code: "SELF_FOLLOW" });
    const unknown = await follow(ada.client, "nobody-here");
    expect(unknown.response.status).toBe(404);
    expect((await unfollow(ada.client, "nobody-here")).response.status).toBe(404);
  });

  it("counts followers exactly when many agents follow at once", async () => {
    const star = await newAgent("star");
    const fans = await Promise.all(Array.from({ length: 30 }, () => newAgent("fan")));
    const answers = await Promise.all(fans.map((fan) => follow(fan.client, star.name)));
    expect(answers.every((a) => a.response.status === 200)).toBe(true);
    expect((await profile(star.client, star.name)).agent.follower_count).toBe(30);
    await Promise.all(fans.slice(0, 10).map((fan) => unfollow(fan.client, star.name)));
    expect((await profile(star.client, star.name)).agent.follower_count).toBe(20);
  });

  it("keeps karma exact when many agents vote at once", async () => {
    const author = await newAgent("author");
    const post = await createPost(author.client, "popular");
    const voters = await Promise.all(Array.from({ length: 40 }, () => newAgent("voter")));
    const answers = await Promise.all(voters.map((v, i) => vote(v.client, post, i % 4 === 0 ? "down" : "up")));
    expect(answers.every((a) => a.response.status === 200)).toBe(true);
    expect((await profile(author.client, author.name)).agent.karma).toBe(30 - 10);
  });
});

describe("karma from comments", () => {
  it("adds the votes of the agent's comments, exact under concurrent voters, and drops a deleted comment's", async () => {
    const author = await newAgent("commenter");
    const host = await newAgent("host");
    const post = await createPost(host.client, "a thread");
    const written = expectData(
      await author.client.POST("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id: post.id } },
        body: { content: "worth a vote" },
      }),
    ).comment;
    const own = await createPost(author.client, "own post");
    const voters = await Promise.all(Array.from({ length: 24 }, () => newAgent("cvoter")));
    const answers = await Promise.all(
      voters.flatMap((v, i) => [
        v.client.POST("/api/v1/comments/{comment_id}/vote", {
          params: { path: { comment_id: written.id } },
          body: { direction: i % 3 === 0 ? "down" : "up" },
        }),
        vote(v.client, own, "up"),
      ]),
    );
    expect(answers.every((a) => a.response.status === 200)).toBe(true);
    // Comment: 16 up, 8 down; post: 24 up.
    expect((await profile(host.client, author.name)).agent.karma).toBe(16 - 8 + 24);
    const deleted = await author.client.DELETE("/api/v1/comments/{comment_id}", {
      params: { path: { comment_id: written.id } },
    });
    expect(deleted.response.status).toBe(204);
    expect((await profile(host.client, author.name)).agent.karma).toBe(24);
  });
});

describe("subscriptions and the feed", () => {
  it("subscribes idempotently with an exact subscriber_count, also on the community's own answers", async () => {
    const { client } = await newAgent("reader");
    const community = await newCommunity(client, "subs");
    expect(community.subscriber_count).toBe(0);
    for (let i = 0; i < 2; i += 1) {
      expect(expectData(await subscribe(client, community.name))).toMatchObject({
        subscribed: true,
        community: { name: community.name, subscriber_count: 1 },
      });
    }
    const read = expectData(
      await client.GET("/api/v1/communities/{community_name}", {
        params: { path: { community_name: community.name } },
      }),
    );
    expect(read.community.subscriber_count).toBe(1);
    expect(expectData(await unsubscribe(client, community.name)).community.subscriber_count).toBe(0);
    expect((await subscribe(client, "no-such-community")).response.status).toBe(404);
  });

  it("counts subscribers exactly when many agents subscribe at once", async () => {
    const { client } = await newAgent("owner");
    const community = await newCommunity(client, "crowd");
    const readers = await Promise.all(Array.from({ length: 25 }, () => newAgent("sub")));
    await Promise.all(readers.map((r) => subscribe(r.client, community.name)));
    const read = expectData(
      await client.GET("/api/v1/communities/{community_name}", {
        params: { path: { community_name: community.name } },
      }),
    );
    expect(read.community.subscriber_count).toBe(25);
  });

  it("lists the posts of subscribed communities and followed agents once each, paged in every order", async () => {
    const reader = await newAgent("reader");
    const ada = await newAgent("ada");
    const stranger = await newAgent("stranger");
    const voter = await newAgent("voter");
    const community = await newCommunity(ada.client, "feedc");
    const other = await newCommunity(ada.client, "elsewhere");
    expect(expectData(await reader.client.GET("/api/v1/feed")).posts).toEqual([]);

    const inCommunity = await createPost(stranger.client, "in the subscribed community", community.id);
    const byAdaThere = await createPost(ada.client, "ada in the subscribed community", community.id);
    const byAdaElsewhere = await createPost(ada.client, "ada elsewhere", other.id);
    await createPost(stranger.client, "not in the feed", other.id);
    expectData(await vote(voter.client, inCommunity, "up"));
    expectData(await vote(voter.client, inCommunity, "up"));
    expectData(await vote(voter.client, byAdaElsewhere, "up"));
    expectData(await subscribe(reader.client, community.name));
    expectData(await follow(reader.client, ada.name));

    const feed = async (sort: "hot" | "new" | "top") => {
      const ids: string[] = [];
      let offset = 0;
      for (;;) {
        const page = expectData(
          await reader.client.GET("/api/v1/feed", { params: { query: { sort, limit: 1, offset } } }),
        );
        ids.push(...page.posts.map((p) => p.id));
        if (!page.has_more) {
          return ids;
        }
        offset = page.next_offset;
      }
    };
    expect(await feed("new")).toEqual([byAdaElsewhere.id, byAdaThere.id, inCommunity.id]);
    // The same voter's second up vote removed the first: one post has a score of 1, the two others 0, by id.
    expect(await feed("top")).toEqual([byAdaElsewhere.id, ...[byAdaThere.id, inCommunity.id].sort()]);
    expect((await feed("hot")).sort()).toEqual([byAdaElsewhere.id, byAdaThere.id, inCommunity.id].sort());

    const bad = await reader.client.GET("/api/v1/feed", {
      params: { query: { sort: "rising" as "hot" } },
    });
    expect(bad.response.status).toBe(400);
  });
});
