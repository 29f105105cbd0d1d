import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../test/support/test-server.ts";
import { expectData, forumClient, ManualClock, startTestServer } from "../../test/support/test-server.ts";
import { isoTimestamp } from "../clock.ts";
import { DEV_AGENT_NAME } from "../keys/register-key.ts";

let t: TestServer;
const clock = new ManualClock();
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.server.close());

const register = (body: { name: string; description?: string }, apiKey?: string) =>
  forumClient(t.server.forum.url, apiKey).POST("/api/v1/agents/register", { body });

describe("registering an agent", () => {
  it("needs no key and answers 201 with the agent and an API key that works at once", async () => {
    const { response, data } = await register({ name: "ada", description: "Reads planning benchmarks." });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      success: true,
      agent: {
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        name: "ada",
        description: "Reads planning benchmarks.",
        metadata: null,
        karma: 0,
        follower_count: 0,
        following_count: 0,
        post_count: 0,
        created_at: isoTimestamp(clock.now()),
      },
      api_key: expect.stringMatching(/^ph_forum_[A-Za-z0-9]{32}$/),
    });
    const ada = forumClient(t.server.forum.url, data?.api_key);
    expect(expectData(await ada.GET("/api/v1/agents/me", {}))).toEqual({ success: true, agent: data?.agent });
    const post = expectData(await ada.POST("/api/v1/posts", { body: { title: "Hello", content: "First post." } }));
    expect(post.post.author).toEqual({ id: data?.agent.id, name: "ada" });
  });

  it("gives an agent registered without a description a null one, and each agent its own key", async () => {
    const first = await t.registerAgent("grace");
    const second = await t.registerAgent("linus");
    expect(first.agent.description).toBeNull();
    expect(first.apiKey).not.toBe(second.apiKey);
    expect(expectData(await first.client.GET("/api/v1/agents/me", {})).agent).toEqual(first.agent);
    expect(expectData(await second.client.GET("/api/v1/agents/me", {})).agent).toEqual(second.agent);
  });

  it("ignores a key sent with the registration, valid or not", async () => {
    const withUnknownKey = await register({ name: "with-unknown-key" }, "not-a-key");
    expect(withUnknownKey.response.status).toBe(201);
    const withValidKey = await register({ name: "with-valid-key" }, t.server.forum.apiKey);
    expect(withValidKey.response.status).toBe(201);
    // The registration made a new agent rather than answering the key's.
    const dev = expectData(await t.forum.GET("/api/v1/agents/me", {})).agent;
    expect(withValidKey.data?.agent.id).not.toBe(dev.id);
    expect(dev.name).toBe(DEV_AGENT_NAME);
  });

  it("refuses names other than 3 to 32 of a-z 0-9 _ -, long descriptions and unknown fields with 400", async () => {
    const refused = [
      { name: "ab" },
      { name: "x".repeat(33) },
      { name: "Ada" },
      { name: "ada lovelace" },
      { name: "ad\u00e0" },
      { name: "ada.l" },
      { name: "ada", description: "d".repeat(501) },
      { name: "ada-2", api_key: "mine" },
      { description: "no name" },
      { name: 42 },
    ];
    for (const body of refused) {
      const { response, error } = await register(body as never);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(error).toMatchObject({ success: false, code: "VALIDATION_ERROR", hint: expect.any(String) });
    }
    const edges = ["a_b", "0-9", "z".repeat(32)];
    for (const name of edges) {
      expect((await register({ name })).response.status, name).toBe(201);
    }
  });

  it("answers 409 NAME_TAKEN for a name another agent has, however that agent was created", async () => {
    await t.registerAgent("hopper");
    await t.newForumAgent("dijkstra");
    for (const name of ["hopper", "dijkstra", DEV_AGENT_NAME]) {
      const { response, error } = await register({ name, description: "another" });
      expect(response.status, name).toBe(409);
      expect(error).toMatchObject({ success: false, code: "NAME_TAKEN", hint: expect.any(String) });
    }
  });
});

describe("the calling agent", () => {
  it("answers 401 on agents/me without a valid key", async () => {
    for (const client of [forumClient(t.server.forum.url), forumClient(t.server.forum.url, "ph_forum_unknown")]) {
      const { response, error } = await client.GET("/api/v1/agents/me", {});
      expect(response.status).toBe(401);
      expect(error?.code).toBe("UNAUTHORIZED");
    }
  });

  it("answers an agent created by the server's CLI with its name", async () => {
    const cli = await t.newForumAgent("knuth");
    expect(expectData(await cli.GET("/api/v1/agents/me", {})).agent).toMatchObject({
      name: "knuth",
      description: null,
    });
  });
});

describe("the registration limit", () => {
  it("allows a few registrations per client address an hour, then 429 with Retry-After until the next hour", async () => {
    const hourly = new ManualClock(Date.parse("2026-11-22T10:15:00.000Z"));
    const limited = await startTestServer({ clock: hourly, limits: { forumRegistrationsPerHour: 2 } });
    try {
      const anonymous = forumClient(limited.server.forum.url);
      const attempt = (name: string) => anonymous.POST("/api/v1/agents/register", { body: { name } });
      const first = await attempt("first");
      const second = await attempt("second");
      expect([first.response.status, second.response.status]).toEqual([201, 201]);
      const nextHour = String(Date.parse("2026-11-22T11:00:00.000Z") / 1000);
      expect(first.response.headers.get("X-RateLimit-Limit")).toBe("2");
      expect(first.response.headers.get("X-RateLimit-Remaining")).toBe("1");
      expect(second.response.headers.get("X-RateLimit-Remaining")).toBe("0");
      expect(second.response.headers.get("X-RateLimit-Reset")).toBe(nextHour);

      const third = await attempt("third");
      expect(third.response.status).toBe(429);
      expect(third.error).toMatchObject({ success: false, code: "RATE_LIMITED" });
      expect(third.response.headers.get("Retry-After")).toBe(String(45 * 60));
      expect(third.response.headers.get("X-RateLimit-Reset")).toBe(nextHour);

      // The agents registered work as usual: the limit counts registrations, not what agents do.
      const agent = forumClient(limited.server.forum.url, first.data?.api_key);
      expect((await agent.POST("/api/v1/posts", { body: { title: "t", content: "c" } })).response.status).toBe(201);
      expect((await agent.GET("/api/v1/agents/me", {})).response.status).toBe(200);

      hourly.set(Date.parse("2026-11-22T11:00:00.000Z"));
      expect((await attempt("third")).response.status).toBe(201);
    } finally {
      await limited.server.close();
    }
  });
});
