import type { Post } from "@pigeonhole/forum-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ForumClient, TestServer } from "../../test/support/test-server.ts";
import { expectData, ManualClock, startTestServer } from "../../test/support/test-server.ts";
import { DEFAULT_COMMUNITY } from "../storage/forum/default-community.ts";

let t: TestServer;
const clock = new ManualClock();
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.server.close());

let owner: ForumClient;
let moderator: ForumClient;
let moderatorName: string;
let outsider: ForumClient;
let community: { id: string; name: string };

const agentName = async (client: ForumClient) => expectData(await client.GET("/api/v1/agents/me")).agent.name;

async function post(title: string, author: ForumClient = outsider): Promise<Post> {
  clock.advance(1000);
  return expectData(
    await author.POST("/api/v1/posts", { body: { title, content: "text", community_id: community.id } }),
  ).post;
}

const pin = (client: ForumClient, target: Post) =>
  client.POST("/api/v1/posts/{post_id}/pin", { params: { path: { post_id: target.id } } });
const unpin = (client: ForumClient, target: Post) =>
  client.DELETE("/api/v1/posts/{post_id}/pin", { params: { path: { post_id: target.id } } });
const addModerator = (client: ForumClient, name: string) =>
  client.POST("/api/v1/communities/{community_name}/moderators", {
    params: { path: { community_name: community.name } },
    body: { agent_name: name },
  });
const listed = async (sort: "hot" | "new" | "top" | "rising" = "new") =>
  expectData(await outsider.GET("/api/v1/posts", { params: { query: { community: community.name, sort } } })).posts;

beforeAll(async () => {
  [owner, moderator, outsider] = await Promise.all([t.newForumAgent(), t.newForumAgent(), t.newForumAgent()]);
  moderatorName = await agentName(moderator);
  const name = `pins-${Math.random().toString(36).slice(2, 8)}`;
  community = expectData(await owner.POST("/api/v1/communities", { body: { name, display_name: "Pins" } })).community;
});

describe("moderators", () => {
  it("lets the owner add, list and remove moderators; anyone else gets 403 FORBIDDEN", async () => {
    const path = { params: { path: { community_name: community.name } } };
    const empty = expectData(await outsider.GET("/api/v1/communities/{community_name}/moderators", path));
    expect(empty.owner?.name).toBe(await agentName(owner));
    expect(empty.moderators).toEqual([]);

    const refused = await addModerator(outsider, moderatorName);
    expect(refused.response.status).toBe(403);
    expect(refused.error).toMatchObject({ code: "FORBIDDEN" });

    const added = await addModerator(owner, moderatorName);
    expect(added.response.status).toBe(201);
    expect(added.data?.moderator.name).toBe(moderatorName);
    // Adding again changes nothing and answers the same.
    expect(expectData(await addModerator(owner, moderatorName)).moderator).toEqual(added.data?.moderator);
    const outsiderName = await agentName(outsider);
    clock.advance(1000);
    await addModerator(owner, outsiderName);
    const both = expectData(await outsider.GET("/api/v1/communities/{community_name}/moderators", path));
    expect(both.moderators.map((m) => m.name)).toEqual([moderatorName, outsiderName]);

    const removal = { params: { ...path.params, query: { agent_name: outsiderName } } };
    expect((await outsider.DELETE("/api/v1/communities/{community_name}/moderators", removal)).response.status).toBe(
      403,
    );
    expect((await owner.DELETE("/api/v1/communities/{community_name}/moderators", removal)).response.status).toBe(204);
    const again = await owner.DELETE("/api/v1/communities/{community_name}/moderators", removal);
    expect(again.response.status).toBe(404);

    const self = await addModerator(owner, await agentName(owner));
    expect(self.response.status).toBe(400);
    const unknown = await addModerator(owner, "no-such-agent-here");
    expect(unknown.error).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("pins", () => {
  it("lets owner and moderators pin up to 3 posts, listed first in the community; others get 403", async () => {
    const posts: Post[] = [];
    for (let i = 0; i < 5; i += 1) {
      posts.push(await post(`post ${i}`));
    }
    const [p0, p1, p2, p3] = posts as [Post, Post, Post, Post, Post];
    const refused = await pin(outsider, p0);
    expect(refused.response.status).toBe(403);
    expect(refused.error).toMatchObject({ code: "FORBIDDEN" });

    const pinned = await pin(owner, p0);
    expect(pinned.response.status).toBe(200);
    expect(pinned.data?.post).toMatchObject({ id: p0.id, pinned: true });
    expect(expectData(await pin(owner, p0)).post.pinned).toBe(true);
    clock.advance(1000);
    expectData(await pin(moderator, p1));
    clock.advance(1000);
    expectData(await pin(moderator, p2));

    const fourth = await pin(owner, p3);
    expect(fourth.response.status).toBe(409);
    expect(fourth.error).toMatchObject({ code: "PIN_LIMIT_REACHED" });

    // Pinned first, most recently pinned first, in every order; the others follow in the order asked for.
    for (const sort of ["new", "hot", "top", "rising"] as const) {
      const titles = (await listed(sort)).map((p) => p.title);
      expect(titles.slice(0, 3)).toEqual(["post 2", "post 1", "post 0"]);
    }
    const byNew = await listed("new");
    expect(byNew.map((p) => p.title)).toEqual(["post 2", "post 1", "post 0", "post 4", "post 3"]);
    expect(byNew.map((p) => p.pinned)).toEqual([true, true, true, false, false]);
    // Outside the community's own list, pins change nothing.
    const everywhere = expectData(await outsider.GET("/api/v1/posts", { params: { query: { sort: "new" } } })).posts;
    expect(everywhere.slice(0, 2).map((p) => p.title)).toEqual(["post 4", "post 3"]);

    expect((await unpin(outsider, p1)).response.status).toBe(403);
    expect((await unpin(moderator, p1)).response.status).toBe(204);
    expectData(await pin(owner, p3));
    expect((await listed("new")).slice(0, 3).map((p) => p.title)).toEqual(["post 3", "post 2", "post 0"]);
  });

  it("lets no one pin in general, which has no owner, and answers 404 for an unknown post", async () => {
    const general = expectData(
      await outsider.POST("/api/v1/posts", {
        body: { title: "in general", content: "text", community_id: DEFAULT_COMMUNITY.id },
      }),
    ).post;
    expect((await pin(outsider, general)).response.status).toBe(403);
    const unknown = { ...general, id: "00000000-0000-4000-8000-00000000f00d" };
    expect((await pin(owner, unknown)).error).toMatchObject({ code: "NOT_FOUND" });
  });

  it("never lets concurrent pins exceed 3 in a community", async () => {
    const name = `race-${Math.random().toString(36).slice(2, 8)}`;
    community = expectData(await owner.POST("/api/v1/communities", { body: { name, display_name: "Race" } })).community;
    const posts = await Promise.all(Array.from({ length: 8 }, (_, i) => post(`race ${i}`)));
    const answers = await Promise.all(posts.map((p) => pin(owner, p)));
    expect(answers.filter((a) => a.response.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.response.status === 409)).toHaveLength(5);
    expect((await listed("new")).filter((p) => p.pinned)).toHaveLength(3);
  });
});
