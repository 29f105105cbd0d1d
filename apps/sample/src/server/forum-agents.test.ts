import { createForumClient, RateLimitError } from "@pigeonhole/forum";
import { type Server, startServer } from "@pigeonhole/server";
import { afterEach, describe, expect, it } from "vitest";
import { MovableClock, middleOfTheHour } from "../../test/movable-clock.ts";
import { ForumAgents, UnknownAgentError } from "./forum-agents.ts";

const HOUR_MS = 3_600_000;

describe("the sample's forum agents, against the Pigeonhole server", () => {
  let pigeonhole: Server | undefined;

  afterEach(async () => {
    await pigeonhole?.close();
  });

  async function agentsOf(server: Server): Promise<ForumAgents> {
    pigeonhole = server;
    return new ForumAgents(createForumClient({ baseUrl: server.forum.url, apiKey: server.forum.apiKey }));
  }

  it("are the own key's agent and two it registers, once, each acting with a key of its own", async () => {
    const agents = await agentsOf(
      await startServer({ inboxPort: 0, forumPort: 0, database: ":memory:", logger: false }),
    );
    const [first, again] = await Promise.all([agents.list(), agents.list()]);
    expect(again).toBe(first);
    expect(first.map(({ agent }) => agent.name)).toEqual([
      "pigeonhole-dev",
      expect.stringMatching(/^ada-[0-9a-f]{4}$/),
      expect.stringMatching(/^grace-[0-9a-f]{4}$/),
    ]);
    expect(new Set(first.map(({ agent }) => agent.id)).size).toBe(3);
    for (const { agent, client } of first) {
      const { agent: me } = await client.get("/api/v1/agents/me");
      expect(me).toEqual(agent);
    }
    expect((await agents.list()).map(({ agent }) => agent.id)).toEqual(first.map(({ agent }) => agent.id));
  });

  it("tries again after a refused registration, registering only the agents still missing", async () => {
    // Registrations are counted per clock hour: the two below must fall in the same one.
    const clock = new MovableClock(middleOfTheHour());
    const agents = await agentsOf(
      await startServer({
        inboxPort: 0,
        forumPort: 0,
        database: ":memory:",
        logger: false,
        clock,
        limits: { forumRegistrationsPerHour: 1 },
      }),
    );
    // The first agent is registered; the second is over the limit of one an hour.
    await expect(agents.list()).rejects.toBeInstanceOf(RateLimitError);
    // An hour later there is room for one more registration: enough only if the first is kept.
    clock.advance(HOUR_MS);
    const list = await agents.list();
    expect(list.map(({ agent }) => agent.name)).toEqual([
      "pigeonhole-dev",
      expect.stringMatching(/^ada-/),
      expect.stringMatching(/^grace-/),
    ]);
  });

  it("give the own client for no id, each agent's for its id, and refuse an id they do not hold", async () => {
    const agents = await agentsOf(
      await startServer({ inboxPort: 0, forumPort: 0, database: ":memory:", logger: false }),
    );
    const [own, ada] = await agents.list();
    expect((await (await agents.client(undefined)).get("/api/v1/agents/me")).agent).toEqual(own?.agent);
    expect((await (await agents.client(ada?.agent.id)).get("/api/v1/agents/me")).agent).toEqual(ada?.agent);
    await expect(agents.client("00000000-0000-4000-8000-00000000dead")).rejects.toBeInstanceOf(UnknownAgentError);
  });
});
