import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testControlOf } from "../../test/support/test-control-requests.ts";
import type { ForumClient, TestServer } from "../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../test/support/test-server.ts";

// The controllable clock drives every time-based rule of the server, in milliseconds of real time.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The start of the UTC day after the server's current day, plus `ms`. */
const nextUtcDayPlus = (nowIso: string, ms: number) => {
  const now = Date.parse(nowIso);
  return new Date(now - (now % DAY) + DAY + ms).toISOString();
};

describe("the clock operations", () => {
  let t: TestServer;
  let control: ReturnType<typeof testControlOf>;
  beforeAll(async () => {
    t = await startTestServer();
    control = testControlOf(t.server);
  });
  afterAll(() => t.server.close());

  it("sets, freezes, advances, refuses to go back, and unfreezes from where it stands", async () => {
    const before = (await control.clock()).body;
    expect(before.frozen).toBe(false);
    const target = nextUtcDayPlus(before.now, 0);
    const set = await control.setClock({ now: target, frozen: true });
    expect(set.body).toMatchObject({ now: target, frozen: true });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await control.clock()).body.now).toBe(target);
    const advanced = await control.advance(1_500);
    expect(advanced.body).toMatchObject({ now: new Date(Date.parse(target) + 1_500).toISOString(), frozen: true });
    const back = await control.setClock({ now: target });
    expect(back.status).toBe(400);
    expect(back.body).toMatchObject({
      error: { type: "validation_error", details: { field: "now", code: "CLOCK_BACKWARDS" } },
    });
    const running = await control.setClock({ frozen: false });
    expect(running.body.frozen).toBe(false);
    expect(Date.parse(running.body.now)).toBeGreaterThanOrEqual(Date.parse(target) + 1_500);
    // Records carry the server's time.
    const inbox = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: `clock-${crypto.randomUUID()}` } }));
    expect(Date.parse(inbox.created_at)).toBeGreaterThanOrEqual(Date.parse(target) + 1_500);
  });

  it("returns to real time on a reset of everything", async () => {
    await control.advance(DAY);
    expect((await control.reset()).status).toBe(204);
    const clock = (await control.clock()).body;
    expect(clock.frozen).toBe(false);
    expect(Math.abs(clock.offset_ms)).toBeLessThan(1_000);
  });
});

describe("time-based rules under the clock", () => {
  let t: TestServer;
  let control: ReturnType<typeof testControlOf>;
  beforeAll(async () => {
    t = await startTestServer({ limits: { inboxRequestsPerMinute: 3, inboxSendsPerDay: 1 } });
    control = testControlOf(t.server);
  });
  afterAll(() => t.server.close());

  const key = () => t.server.inbox.apiKey;
  const listInboxes = () =>
    fetch(`${t.server.inbox.url}/v0/inboxes`, { headers: { authorization: `Bearer ${key()}` } });

  it("resets the per-minute rate limit when the clock passes the window", async () => {
    const now = (await control.clock()).body.now;
    await control.setClock({ now: nextUtcDayPlus(now, 0), frozen: true });
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await listInboxes()).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    await control.advance(MINUTE);
    expect((await listInboxes()).status).toBe(200);
  });

  it("resets the daily send limit on the next UTC day, and expires Idempotency-Keys after 24 h", async () => {
    const now = (await control.clock()).body.now;
    await control.setClock({ now: nextUtcDayPlus(now, DAY - MINUTE), frozen: true });
    const inboxId = expectData(
      await t.inbox.POST("/v0/inboxes", { body: { username: `limit-${crypto.randomUUID()}` } }),
    ).inbox_id;
    const send = (idempotencyKey: string) =>
      fetch(`${t.server.inbox.url}/v0/inboxes/${encodeURIComponent(inboxId)}/messages`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key()}`,
          "content-type": "application/json",
          "idempotency-key": idempotencyKey,
        },
        body: JSON.stringify({ to: "ada@example.com", subject: "daily", text: "x" }),
      });
    const first = await send("once");
    expect(first.status).toBe(200);
    const { message_id } = (await first.json()) as { message_id: string };
    const refused = await send("twice");
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { details: { code: string } } }).error.details.code).toBe(
      "SEND_LIMIT_EXCEEDED",
    );
    // One minute later it is the next UTC day: a new allowance (and a new rate-limit window).
    await control.advance(MINUTE);
    const replay = await send("once");
    expect(((await replay.json()) as { message_id: string }).message_id).toBe(message_id);
    // 24 hours after the first send, its key has expired: the same key sends anew.
    await control.advance(DAY - MINUTE);
    await control.advance(MINUTE);
    const anew = await send("once");
    expect(anew.status).toBe(200);
    expect(((await anew.json()) as { message_id: string }).message_id).not.toBe(message_id);
  });
});

describe("the forum's hot rank", () => {
  let t: TestServer;
  let control: ReturnType<typeof testControlOf>;
  beforeAll(async () => {
    t = await startTestServer();
    control = testControlOf(t.server);
  });
  afterAll(() => t.server.close());

  const post = async (client: ForumClient, title: string) =>
    expectData(await client.POST("/api/v1/posts", { body: { title, content: title } })).post.id;

  it("lets a newer post overtake a better-voted one as it ages", async () => {
    const author = t.forum;
    const voters = [await t.newForumAgent(), await t.newForumAgent()];
    const voted = await post(author, `voted-${crypto.randomUUID()}`);
    for (const voter of voters) {
      expectData(
        await voter.POST("/api/v1/posts/{post_id}/vote", {
          params: { path: { post_id: voted } },
          body: { direction: "up" },
        }),
      );
    }
    const early = await post(author, `early-${crypto.randomUUID()}`);
    // Two votes and the author's own make s = 3, worth log10(3) * 45,000 s, about 6 hours of age.
    await control.advance(7 * HOUR);
    const late = await post(author, `late-${crypto.randomUUID()}`);
    const { posts } = expectData(await author.GET("/api/v1/posts", { params: { query: { sort: "hot", limit: 100 } } }));
    const order = posts.map((each) => each.id).filter((id) => [voted, early, late].includes(id));
    expect(order).toEqual([late, voted, early]);
  });
});
