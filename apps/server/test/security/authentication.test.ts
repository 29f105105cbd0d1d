import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusedUpgrade } from "../support/event-stream-client.ts";
import type { TestServer } from "../support/test-server.ts";
import { ManualClock, startTestServer } from "../support/test-server.ts";

// Guessing keys: requests with a missing or invalid key are limited per client address on both services (and on the
// live event stream's upgrade), and the refusal comes before the key is hashed or looked up. The server trusts
// 127.0.0.1 as a proxy here, so that `X-Forwarded-For` names the client addresses the test plays.

const LIMIT = 3;
const clock = new ManualClock(Date.parse("2026-11-22T09:30:00.000Z"));
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ clock, limits: { authFailuresPerMinute: LIMIT }, trustedProxies: ["127.0.0.1"] });
});
afterAll(async () => {
  await t.server.close();
});

const from = (address: string, key?: string): Record<string, string> => ({
  "X-Forwarded-For": address,
  ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }),
});

describe("failed authentication per client address", () => {
  it("answers 429 with Retry-After past the limit on both services and the upgrade; other addresses go on", async () => {
    const guesser = "203.0.113.7";
    for (let i = 0; i < LIMIT; i++) {
      const refused = await fetch(`${t.server.inbox.url}/v0/inboxes`, { headers: from(guesser, `guess-${i}`) });
      expect(refused.status).toBe(401);
    }

    const inbox = await fetch(`${t.server.inbox.url}/v0/inboxes`, { headers: from(guesser, "guess-next") });
    expect(inbox.status).toBe(429);
    expect(Number(inbox.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(inbox.headers.get("x-ratelimit-limit")).toBe(String(LIMIT));
    expect(await inbox.json()).toEqual({
      error: {
        type: "rate_limit_error",
        message: expect.stringContaining("failed authentications"),
        details: { field: null, code: "RATE_LIMIT_EXCEEDED" },
      },
    });

    // The count is the address's, over both services, and a missing key counts as a failed one.
    const forum = await fetch(`${t.server.forum.url}/api/v1/posts`, { headers: from(guesser) });
    expect(forum.status).toBe(429);
    expect(forum.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await forum.json()).toMatchObject({ success: false, code: "RATE_LIMITED" });

    const upgrade = await refusedUpgrade(`${t.server.inbox.url}/v0/ws?api_key=guess-ws`, from(guesser));
    expect(upgrade.status).toBe(429);
    expect(upgrade.headers["retry-after"]).toMatch(/^\d+$/);
    expect(JSON.parse(upgrade.body)).toMatchObject({ error: { details: { code: "RATE_LIMIT_EXCEEDED" } } });

    // Refused before the key is looked at: even a valid key from that address waits for the window to end.
    const validKey = t.server.inbox.apiKey;
    expect((await fetch(`${t.server.inbox.url}/v0/inboxes`, { headers: from(guesser, validKey) })).status).toBe(429);

    // Another address with a good key is not affected, nor is one that only made mistakes below the limit.
    expect((await fetch(`${t.server.inbox.url}/v0/inboxes`, { headers: from("198.51.100.9", validKey) })).status).toBe(
      200,
    );
    expect((await fetch(`${t.server.inbox.url}/v0/inboxes`, { headers: from("198.51.100.10", "typo") })).status).toBe(
      401,
    );

    // The next window starts the address over.
    clock.advance(60_000);
    expect((await fetch(`${t.server.inbox.url}/v0/inboxes`, { headers: from(guesser, validKey) })).status).toBe(200);
  });

  it("counts the addresses of one IPv6 /64 together", async () => {
    for (let i = 0; i < LIMIT; i++) {
      const address = `2001:db8:1:2::${i + 1}`;
      expect((await fetch(`${t.server.forum.url}/api/v1/posts`, { headers: from(address, "nope") })).status).toBe(401);
    }
    const neighbour = await fetch(`${t.server.forum.url}/api/v1/posts`, {
      headers: from("2001:db8:1:2:ffff::9", "nope"),
    });
    expect(neighbour.status).toBe(429);
    const elsewhere = await fetch(`${t.server.forum.url}/api/v1/posts`, { headers: from("2001:db8:1:3::1", "nope") });
    expect(elsewhere.status).toBe(401);
  });
});
