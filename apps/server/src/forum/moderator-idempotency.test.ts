import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ForumClient, TestServer } from "../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../test/support/test-server.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.server.close());

const agentName = async (client: ForumClient) => expectData(await client.GET("/api/v1/agents/me")).agent.name;

describe("Idempotency-Key on Add Moderator", () => {
  let owner: ForumClient;
  let community: string;
  let first: string;
  let second: string;

  const add = (name: string, key: string, target = community) =>
    owner.POST("/api/v1/communities/{community_name}/moderators", {
      params: { path: { community_name: target }, header: { "Idempotency-Key": key } },
      body: { agent_name: name },
    });
  const moderators = async () =>
    expectData(
      await owner.GET("/api/v1/communities/{community_name}/moderators", {
        params: { path: { community_name: community } },
      }),
    ).moderators.map((m) => m.name);

  beforeAll(async () => {
    owner = await t.newForumAgent();
    [first, second] = await Promise.all([agentName(await t.newForumAgent()), agentName(await t.newForumAgent())]);
    community = `mods-${Math.random().toString(36).slice(2, 8)}`;
    expectData(await owner.POST("/api/v1/communities", { body: { name: community, display_name: "Mods" } }));
  });

  it("replays the original answer for the same key and body, and writes nothing again", async () => {
    const added = await add(first, "add-first");
    expect(added.response.status).toBe(201);
    expect(added.data?.moderator.name).toBe(first);

    const removal = { params: { path: { community_name: community }, query: { agent_name: first } } };
    expect((await owner.DELETE("/api/v1/communities/{community_name}/moderators", removal)).response.status).toBe(204);

    // The repeat answers what the first request did; it does not make the removed agent a moderator again.
    const repeated = await add(first, "add-first");
    expect(repeated.response.status).toBe(201);
    expect(repeated.data).toEqual(added.data);
    expect(await moderators()).toEqual([]);
  });

  it("answers 409 IDEMPOTENCY_KEY_REUSED for the same key with another body or community, adding no one", async () => {
    expectData(await add(first, "add-once"));
    const otherBody = await add(second, "add-once");
    expect(otherBody.response.status).toBe(409);
    expect(otherBody.error).toMatchObject({ success: false, code: "IDEMPOTENCY_KEY_REUSED", hint: expect.any(String) });

    const elsewhere = `mods-${Math.random().toString(36).slice(2, 8)}`;
    expectData(await owner.POST("/api/v1/communities", { body: { name: elsewhere, display_name: "Elsewhere" } }));
    const otherCommunity = await add(first, "add-once", elsewhere);
    expect(otherCommunity.response.status).toBe(409);
    expect(await moderators()).toEqual([first]);
  });

  it("keeps no key for a refused request, so its retry with the same key is carried out", async () => {
    const unknown = await add("no-such-agent-yet", "add-later");
    expect(unknown.response.status).toBe(404);
    const retried = await add(second, "add-later");
    expect(retried.response.status).toBe(201);
    expect(await moderators()).toContain(second);
  });
});
