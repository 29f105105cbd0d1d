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

const HOUR = 3_600_000;
let communities = 0;

/** A community of its own, so that each test lists only its posts. */
async function newCommunity(): Promise<{ id: string; name: string }> {
  communities += 1;
  const name = `orders-${communities}-${Math.random().toString(36).slice(2, 8)}`;
  return expectData(await t.forum.POST("/api/v1/communities", { body: { name, display_name: name } })).community;
}

async function post(community: { id: string }, title: string): Promise<Post> {
  return expectData(
    await t.forum.POST("/api/v1/posts", { body: { title, content: "text", community_id: community.id } }),
  ).post;
}

async function upvote(voters: ForumClient[], target: Post, count: number) {
  for (const voter of voters.slice(0, count)) {
    expectData(
      await voter.POST("/api/v1/posts/{post_id}/vote", {
        params: { path: { post_id: target.id } },
        body: { direction: "up" },
      }),
    );
  }
}

type Sort = "hot" | "new" | "top" | "rising";
type Window = "hour" | "day" | "week" | "month" | "year" | "all";

const titles = async (community: { name: string }, sort: Sort, t_?: Window) =>
  expectData(
    await t.forum.GET("/api/v1/posts", {
      params: { query: { community: community.name, sort, ...(t_ ? { t: t_ } : {}) } },
    }),
  ).posts.map((p) => p.title);

let voters: ForumClient[];
beforeAll(async () => {
  voters = await Promise.all(Array.from({ length: 4 }, () => t.newForumAgent()));
});

describe("post orders", () => {
  it("hot counts the author's implicit vote: another agent's first upvote lifts a post above a newer one", async () => {
    const community = await newCommunity();
    const older = await post(community, "older");
    clock.advance(1000);
    await post(community, "newer");
    expect(await titles(community, "hot")).toEqual(["newer", "older"]);
    await upvote(voters, older, 1);
    expect(await titles(community, "hot")).toEqual(["older", "newer"]);
  });

  it("top ranks by score within the window t, newer first among equals", async () => {
    const community = await newCommunity();
    const old = await post(community, "old, 3 up");
    await upvote(voters, old, 3);
    clock.advance(2 * 24 * HOUR);
    const recent = await post(community, "recent, 1 up");
    await upvote(voters, recent, 1);
    clock.advance(2 * HOUR);
    await post(community, "newest, 0");
    expect(await titles(community, "top")).toEqual(["old, 3 up", "recent, 1 up", "newest, 0"]);
    expect(await titles(community, "top", "all")).toEqual(["old, 3 up", "recent, 1 up", "newest, 0"]);
    expect(await titles(community, "top", "week")).toEqual(["old, 3 up", "recent, 1 up", "newest, 0"]);
    expect(await titles(community, "top", "day")).toEqual(["recent, 1 up", "newest, 0"]);
    expect(await titles(community, "top", "hour")).toEqual(["newest, 0"]);
  });

  it("rising favours recent posts gaining votes fast, over the last 24 hours only", async () => {
    const community = await newCommunity();
    await post(community, "too old");
    clock.advance(5 * HOUR);
    const steady = await post(community, "steady");
    await upvote(voters, steady, 3);
    clock.advance(20 * HOUR);
    const fresh = await post(community, "fresh");
    await upvote(voters, fresh, 1);
    await post(community, "quiet");
    // fresh: 2 / 2^1.5 = 0.71; quiet: 1 / 2^1.5 = 0.35; steady: 4 / 22^1.5 = 0.04; "too old" is 25 hours old.
    expect(await titles(community, "rising")).toEqual(["fresh", "quiet", "steady"]);
  });

  it("breaks ties by id in every order, so pages never repeat or skip a post", async () => {
    const community = await newCommunity();
    const made = [];
    for (let i = 0; i < 7; i += 1) {
      made.push(await post(community, `same ${i}`));
    }
    for (const sort of ["hot", "new", "top", "rising"] as const) {
      const whole = await titles(community, sort);
      expect(whole.toSorted()).toEqual(made.map((p) => p.title).toSorted());
      const paged: string[] = [];
      for (let offset = 0; offset < 7; offset += 2) {
        const slice = expectData(
          await t.forum.GET("/api/v1/posts", {
            params: { query: { community: community.name, sort, limit: 2, offset } },
          }),
        );
        paged.push(...slice.posts.map((p) => p.title));
      }
      expect(paged).toEqual(whole);
    }
  });

  it("refuses an unknown t with 400 VALIDATION_ERROR", async () => {
    const answer = await t.forum.GET("/api/v1/posts", { params: { query: { sort: "top", t: "decade" as Window } } });
    expect(answer.response.status).toBe(400);
    expect(answer.error).toMatchObject({ code: "VALIDATION_ERROR" });
  });
});
