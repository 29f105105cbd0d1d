import type { CommunityDetails } from "@pigeonhole/forum-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ForumClient, TestServer } from "../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../test/support/test-server.ts";
import { DEFAULT_COMMUNITY } from "../storage/forum/default-community.ts";

// The system clock: `general` is created with the database, before anything the tests create.
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.server.close());

const createCommunity = async (client: ForumClient, name: string, extra: { description?: string } = {}) =>
  expectData(
    await client.POST("/api/v1/communities", {
      body: { name, display_name: name.toUpperCase(), ...extra },
    }),
  ).community;

const listAll = async (client: ForumClient): Promise<CommunityDetails[]> => {
  const all: CommunityDetails[] = [];
  for (let offset = 0; ; ) {
    const page = expectData(await client.GET("/api/v1/communities", { params: { query: { limit: 100, offset } } }));
    all.push(...page.communities);
    if (!page.has_more) {
      return all;
    }
    offset = page.next_offset;
  }
};

describe("communities", () => {
  it("has general, with its fixed id, before anyone creates anything, first in the list", async () => {
    const fresh = await startTestServer();
    try {
      const list = expectData(await fresh.forum.GET("/api/v1/communities", {}));
      expect(list).toMatchObject({ success: true, count: 1, has_more: false, next_offset: 1 });
      expect(list.communities).toEqual([
        {
          ...DEFAULT_COMMUNITY,
          description: expect.any(String),
          subscriber_count: 0,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
      ]);
      const general = expectData(
        await fresh.forum.GET("/api/v1/communities/{community_name}", {
          params: { path: { community_name: "general" } },
        }),
      );
      expect(general).toEqual({ success: true, community: list.communities[0] });
    } finally {
      await fresh.server.close();
    }
  });

  it("creates a community that every other agent reads by name, lists and posts in", async () => {
    const founder = await t.registerAgent("founder");
    const member = await t.registerAgent("member");
    const { response, data } = await founder.client.POST("/api/v1/communities", {
      body: { name: "planning", display_name: "Planning", description: "Plans and tools." },
    });
    expect(response.status).toBe(201);
    const planning = data?.community as CommunityDetails;
    expect(planning).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "planning",
      display_name: "Planning",
      description: "Plans and tools.",
      subscriber_count: 0,
      created_at: expect.any(String),
    });
    expect(
      expectData(
        await member.client.GET("/api/v1/communities/{community_name}", {
          params: { path: { community_name: "planning" } },
        }),
      ),
    ).toEqual({ success: true, community: planning });
    expect(await listAll(member.client)).toContainEqual(planning);

    const post = expectData(
      await member.client.POST("/api/v1/posts", {
        body: { title: "Plans", content: "Share yours.", community_id: planning.id },
      }),
    ).post;
    expect(post.community).toEqual({ id: planning.id, name: "planning", display_name: "Planning" });
    expect((await createCommunity(member.client, "no-description")).description).toBeNull();
  });

  it("lists only the posts of the community named in `community`, and nothing for a name no community has", async () => {
    const agent = await t.registerAgent("filterer");
    const tools = await createCommunity(agent.client, "tools");
    const inTools = expectData(
      await agent.client.POST("/api/v1/posts", { body: { title: "hammer", content: "c", community_id: tools.id } }),
    ).post;
    const inGeneral = expectData(
      await agent.client.POST("/api/v1/posts", { body: { title: "chat", content: "c" } }),
    ).post;

    const listed = async (community: string) =>
      expectData(await agent.client.GET("/api/v1/posts", { params: { query: { community, limit: 100 } } }));
    expect((await listed("tools")).posts.map((p) => p.id)).toEqual([inTools.id]);
    const general = await listed("general");
    expect(general.posts.map((p) => p.id)).toContain(inGeneral.id);
    expect(general.posts.every((p) => p.community.name === "general")).toBe(true);
    expect(await listed("no-such-community")).toEqual({
      success: true,
      posts: [],
      count: 0,
      has_more: false,
      next_offset: 0,
    });
    const everything = expectData(await agent.client.GET("/api/v1/posts", { params: { query: { limit: 100 } } }));
    expect(everything.posts.map((p) => p.id)).toEqual(expect.arrayContaining([inTools.id, inGeneral.id]));
    const badName = await agent.client.GET("/api/v1/posts", { params: { query: { community: "Not A Name" } } });
    expect(badName.response.status).toBe(400);
  });

  it("answers 409 NAME_TAKEN for a name in use, general included, whoever created it", async () => {
    const first = await t.registerAgent("first-founder");
    const second = await t.registerAgent("second-founder");
    await createCommunity(first.client, "taken");
    for (const [client, name] of [
      [first.client, "taken"],
      [second.client, "taken"],
      [second.client, "general"],
    ] as const) {
      const { response, error } = await client.POST("/api/v1/communities", { body: { name, display_name: "Again" } });
      expect(response.status, name).toBe(409);
      expect(error).toMatchObject({ success: false, code: "NAME_TAKEN", hint: expect.any(String) });
    }
    expect((await listAll(second.client)).filter((c) => c.name === "taken")).toHaveLength(1);
  });

  it("answers 404 for a name no community has and 400 for a name no community can have", async () => {
    const missing = await t.forum.GET("/api/v1/communities/{community_name}", {
      params: { path: { community_name: "nowhere" } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.code).toBe("NOT_FOUND");
    for (const community_name of ["No", "has space", "x".repeat(33)]) {
      const { response, error } = await t.forum.GET("/api/v1/communities/{community_name}", {
        params: { path: { community_name } },
      });
      expect(response.status, community_name).toBe(400);
      expect(error?.code).toBe("VALIDATION_ERROR");
    }
  });

  it("refuses invalid names, display names, descriptions and unknown fields with 400", async () => {
    for (const body of [
      { name: "ab", display_name: "Ab" },
      { name: "Upper", display_name: "Upper" },
      { name: "valid-name", display_name: "" },
      { name: "valid-name", display_name: "d".repeat(101) },
      { name: "valid-name", display_name: "D", description: "x".repeat(501) },
      { name: "valid-name", display_name: "D", id: "mine" },
      { name: "valid-name" },
    ]) {
      const { response, error } = await t.forum.POST("/api/v1/communities", { body: body as never });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error?.code).toBe("VALIDATION_ERROR");
    }
    const created = await t.forum.GET("/api/v1/communities/{community_name}", {
      params: { path: { community_name: "valid-name" } },
    });
    expect(created.response.status).toBe(404);
  });

  it("pages communities oldest first with offset paging, general first", async () => {
    const agent = await t.registerAgent("pager");
    for (const name of ["page-a", "page-b", "page-c"]) {
      await createCommunity(agent.client, name);
    }
    const all = await listAll(agent.client);
    expect(all[0]?.id).toBe(DEFAULT_COMMUNITY.id);
    const key = (c: CommunityDetails) => `${c.created_at} ${c.id}`;
    const byAge = [...all].sort((a, b) => (key(a) < key(b) ? -1 : 1));
    expect(all.map((c) => c.id)).toEqual(byAge.map((c) => c.id));

    const pages: CommunityDetails[] = [];
    let offset = 0;
    for (let more = true; more; ) {
      const page = expectData(
        await agent.client.GET("/api/v1/communities", { params: { query: { limit: 2, offset } } }),
      );
      expect(page.count).toBe(page.communities.length);
      expect(page.next_offset).toBe(offset + page.count);
      pages.push(...page.communities);
      offset = page.next_offset;
      more = page.has_more;
    }
    expect(pages).toEqual(all);
    const past = expectData(await agent.client.GET("/api/v1/communities", { params: { query: { offset: 1000 } } }));
    expect(past).toEqual({ success: true, communities: [], count: 0, has_more: false, next_offset: 1000 });
    for (const query of [{ limit: 0 }, { limit: 101 }, { offset: -1 }]) {
      const { response } = await agent.client.GET("/api/v1/communities", { params: { query } });
      expect(response.status, JSON.stringify(query)).toBe(400);
    }
  });
});
