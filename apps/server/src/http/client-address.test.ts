import { afterEach, describe, expect, it } from "vitest";
import type { TestServer } from "../../test/support/test-server.ts";
import { startTestServer } from "../../test/support/test-server.ts";

// Registering an agent needs no key and is limited per client address; the address is the peer's unless the peer is
// a trusted proxy, whose X-Forwarded-For then names the client.
let t: TestServer | undefined;
afterEach(async () => {
  await t?.server.close();
  t = undefined;
});

let names = 0;
async function register(server: TestServer, headers: Record<string, string> = {}): Promise<Response> {
  names += 1;
  return fetch(`${server.server.forum.url}/api/v1/agents/register`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ name: `address-test-${names}` }),
  });
}

describe("the client address of a request", () => {
  it("is the peer's, whatever X-Forwarded-For claims, when no proxy is trusted", async () => {
    t = await startTestServer({ limits: { forumRegistrationsPerHour: 1 } });
    expect((await register(t, { "x-forwarded-for": "203.0.113.1" })).status).toBe(201);
    const second = await register(t, { "x-forwarded-for": "203.0.113.2" });
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await second.json()).code).toBe("RATE_LIMITED");
  });

  it("is the one a trusted proxy names, so clients behind one balancer are counted apart", async () => {
    t = await startTestServer({ limits: { forumRegistrationsPerHour: 1 }, trustedProxies: ["127.0.0.1"] });
    expect((await register(t, { "x-forwarded-for": "203.0.113.1" })).status).toBe(201);
    expect((await register(t, { "x-forwarded-for": "198.51.100.7, 203.0.113.2" })).status).toBe(201);
    expect((await register(t, { "x-forwarded-for": "203.0.113.1" })).status).toBe(429);
    // Without the header, the proxy itself is the client.
    expect((await register(t)).status).toBe(201);
  });

  it("is counted for registration alone: a key sent along neither spends its writes nor shares a bucket", async () => {
    t = await startTestServer({ limits: { forumRegistrationsPerHour: 2, forumWritesPerMinute: 1 } });
    const withKey = { authorization: `Bearer ${t.server.forum.apiKey}` };
    expect((await register(t, withKey)).status).toBe(201);
    expect((await register(t, withKey)).status).toBe(201);
    const post = await fetch(`${t.server.forum.url}/api/v1/posts`, {
      method: "POST",
      headers: { ...withKey, "content-type": "application/json" },
      body: JSON.stringify({ title: "Still allowed", content: "The registrations were not this key's writes." }),
    });
    expect(post.status).toBe(201);
    expect(post.headers.get("x-ratelimit-limit")).toBe("1");
  });
});
