import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testControlOf } from "../../test/support/test-control-requests.ts";
import type { InboxClient, TestServer } from "../../test/support/test-server.ts";
import { expectData, forumClient, inboxClient, startTestServer } from "../../test/support/test-server.ts";

// Reset wipes one key's data, or everything, on the run's database; keys stay valid and other keys' data stays.

let t: TestServer;
let control: ReturnType<typeof testControlOf>;
beforeAll(async () => {
  t = await startTestServer();
  control = testControlOf(t.server);
});
afterAll(() => t.server.close());

/** A pod with an inbox at `username`, a webhook, and a sent message (delivered to `to`, if given). */
async function populatedPod(client: InboxClient, username: string, to?: string) {
  const inbox = expectData(await client.POST("/v0/inboxes", { body: { username, client_id: `client-${username}` } }));
  const webhook = expectData(
    await client.POST("/v0/webhooks", { body: { url: "http://127.0.0.1:9/hook", client_id: `hook-${username}` } }),
  );
  const sent = expectData(
    await client.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: inbox.inbox_id } },
      headers: { "Idempotency-Key": `send-${username}` },
      body: { to: to ?? "ada@example.com", subject: "before reset", text: "x" },
    }),
  );
  return { inbox, webhook, sent };
}

const counts = async (client: InboxClient) => ({
  inboxes: expectData(await client.GET("/v0/inboxes", {})).count,
  webhooks: expectData(await client.GET("/v0/webhooks", {})).count,
});

describe("reset of one inbox key", () => {
  it("wipes that pod's data and leaves another pod's, and the same addresses, ids and keys work again", async () => {
    const key = await t.server.createApiKey("inbox");
    const mine = inboxClient(t.server.inbox.url, key);
    const other = await t.newInboxTenant();
    const otherPod = await populatedPod(other, `other-${crypto.randomUUID()}`);
    const username = `mine-${crypto.randomUUID()}`;
    // Mine sends to the other pod's inbox: the other pod's received copy stays.
    const before = await populatedPod(mine, username, otherPod.inbox.inbox_id);

    expect((await control.reset(key)).status).toBe(204);

    expect(await counts(mine)).toEqual({ inboxes: 0, webhooks: 0 });
    expect(await counts(other)).toEqual({ inboxes: 1, webhooks: 1 });
    const received = expectData(
      await other.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: otherPod.inbox.inbox_id } } }),
    );
    expect(received.messages.map((message) => message.message_id)).toContain(before.sent.message_id);
    const copy = expectData(
      await other.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: otherPod.inbox.inbox_id, message_id: before.sent.message_id } },
      }),
    );
    expect(copy.subject).toBe("before reset");

    // The address, the client ids and the Idempotency-Key are free again: new records, not the old ones.
    const after = await populatedPod(mine, username, otherPod.inbox.inbox_id);
    expect(after.inbox.inbox_id).toBe(before.inbox.inbox_id);
    expect(after.webhook.webhook_id).not.toBe(before.webhook.webhook_id);
    expect(after.sent.message_id).not.toBe(before.sent.message_id);
  });

  it("wipes nothing for a key the server does not know", async () => {
    const client = await t.newInboxTenant();
    await populatedPod(client, `kept-${crypto.randomUUID()}`);
    expect((await control.reset("no-such-key")).status).toBe(204);
    expect(await counts(client)).toEqual({ inboxes: 1, webhooks: 1 });
  });
});

describe("reset of one forum agent", () => {
  it("wipes its posts, comments and votes, and leaves other agents' posts with their counts right", async () => {
    const key = await t.server.createApiKey("forum");
    const agent = forumClient(t.server.forum.url, key);
    const other = await t.newForumAgent();
    const own = expectData(await agent.POST("/api/v1/posts", { body: { title: "mine", content: "x" } })).post.id;
    const theirs = expectData(await other.POST("/api/v1/posts", { body: { title: "theirs", content: "x" } })).post.id;
    expectData(
      await agent.POST("/api/v1/posts/{post_id}/vote", {
        params: { path: { post_id: theirs } },
        body: { direction: "up" },
      }),
    );
    expectData(
      await agent.POST("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id: theirs } },
        body: { content: "hi" },
      }),
    );
    expectData(
      await other.POST("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id: own } },
        body: { content: "on yours" },
      }),
    );

    expect((await control.reset(key)).status).toBe(204);

    expect((await other.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: own } } })).response.status).toBe(
      404,
    );
    const kept = expectData(await other.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: theirs } } })).post;
    expect(kept).toMatchObject({ upvotes: 0, downvotes: 0, comment_count: 0 });
    const comments = expectData(
      await other.GET("/api/v1/posts/{post_id}/comments", { params: { path: { post_id: theirs } } }),
    );
    expect(comments.comments).toEqual([]);
    // The key still works.
    expect((await agent.GET("/api/v1/agents/me", {})).response.status).toBe(200);
  });
});

describe("reset of everything", () => {
  it("wipes every pod's data and every fault, and keeps the keys", async () => {
    const client = await t.newInboxTenant();
    await populatedPod(client, `all-${crypto.randomUUID()}`);
    await control.addFault({ target: "mail", match: { to: "x@example.com" }, action: { type: "bounce" } });

    expect((await control.reset()).status).toBe(204);

    expect(await counts(client)).toEqual({ inboxes: 0, webhooks: 0 });
    expect(await counts(t.inbox)).toEqual({ inboxes: 0, webhooks: 0 });
    expect((await control.call("GET", "/faults")).body).toEqual({ faults: [] });
    const { posts } = expectData(await t.forum.GET("/api/v1/posts", {}));
    expect(posts).toEqual([]);
    const general = await t.forum.GET("/api/v1/communities/{community_name}", {
      params: { path: { community_name: "general" } },
    });
    expect(general.response.status).toBe(200);
  });
});
