import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ForumClient, InboxClient, TestServer } from "../test/support/test-server.ts";
import {
  expectData,
  forumClient,
  inboxClient,
  ManualClock,
  observedResponses,
  startTestServer,
} from "../test/support/test-server.ts";
import { startWebhookReceiver } from "../test/support/webhook-receiver.ts";
import type { ServiceName } from "./spec/spec-bundle.ts";
import { documentOperations, loadSpecBundle } from "./spec/spec-bundle.ts";

// Every operation of both specs, called over HTTP through clients typed by the generated types. Each response is
// checked against the bundled spec by the clients' middleware (status documented, body and headers valid); at the
// end, every documented status of every operation must have been seen, except 500 (proven in service-app.test.ts).

const MISSING_UUID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const TOO_BIG_INBOX = "x".repeat(10 * 1024 * 1024 + 1);
const TOO_BIG_FORUM = "x".repeat(1024 * 1024 + 1);

let t: TestServer;
let limited: TestServer;
const clock = new ManualClock();
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  // Two webhooks per pod: the contract's pod reaches the cap with its second and is refused a third.
  t = await startTestServer({ webhooksPerPod: 2 });
  // One request per minute per key, on a clock that never moves: a key's second request is always a 429.
  limited = await startTestServer({
    clock,
    limits: {
      inboxRequestsPerMinute: 1,
      forumReadsPerMinute: 1,
      forumWritesPerMinute: 1,
      inboxSendsPerDay: 1,
      forumRegistrationsPerHour: 1,
    },
  });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await t.server.close();
  await limited.server.close();
  await receiver.close();
});

/** A client whose per-minute budget is already spent. */
async function exhaustedInbox(): Promise<InboxClient> {
  const client = await limited.newInboxTenant();
  await client.GET("/v0/inboxes", {});
  return client;
}

async function exhaustedForum(): Promise<ForumClient> {
  const client = await limited.newForumAgent();
  await client.GET("/api/v1/posts", {});
  await client.POST("/api/v1/posts", { body: { title: "spend", content: "the write budget" } });
  return client;
}

function documentedStatuses(service: ServiceName): string[] {
  return documentOperations(loadSpecBundle(service)).flatMap(({ path, method, operation }) =>
    Object.keys(operation.responses)
      .filter((status) => status !== "500")
      .map((status) => `${method.toUpperCase()} ${path} ${status}`),
  );
}

describe("inbox contract", () => {
  it("answers every operation as documented", async () => {
    const c = t.inbox;
    const stranger = await t.newInboxTenant();
    const unauthorized = inboxClient(t.server.inbox.url, "not-a-key");
    const inbox = expectData(await c.POST("/v0/inboxes", { body: { username: "contract", client_id: "contract-1" } }));
    const path = { inbox_id: inbox.inbox_id };

    // Inboxes
    expectData(await c.POST("/v0/inboxes", { body: { client_id: "contract-1" } }));
    await c.POST("/v0/inboxes", { body: { username: "BAD" } });
    await c.POST("/v0/inboxes", { body: { username: "contract" } });
    await c.POST("/v0/inboxes", { body: { display_name: TOO_BIG_INBOX } });
    await unauthorized.POST("/v0/inboxes", {});
    await (await exhaustedInbox()).POST("/v0/inboxes", {});
    expectData(await c.GET("/v0/inboxes", { params: { query: { limit: 5 } } }));
    await c.GET("/v0/inboxes", { params: { query: { limit: 500 } } });
    await unauthorized.GET("/v0/inboxes", {});
    await (await exhaustedInbox()).GET("/v0/inboxes", {});
    expectData(await c.GET("/v0/inboxes/{inbox_id}", { params: { path } }));
    await c.GET("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: "not-an-address" } } });
    await stranger.GET("/v0/inboxes/{inbox_id}", { params: { path } });
    await unauthorized.GET("/v0/inboxes/{inbox_id}", { params: { path } });
    await (await exhaustedInbox()).GET("/v0/inboxes/{inbox_id}", { params: { path } });

    // Messages
    const sendPath = { params: { path, header: { "Idempotency-Key": "contract-send" } } };
    const sent = expectData(
      await c.POST("/v0/inboxes/{inbox_id}/messages", { ...sendPath, body: { to: inbox.inbox_id } }),
    );
    await c.POST("/v0/inboxes/{inbox_id}/messages", { ...sendPath, body: { to: "other@example.com" } });
    await c.POST("/v0/inboxes/{inbox_id}/messages", { params: { path }, body: { to: "ada@" } });
    await c.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path },
      body: { to: "a@example.com", text: TOO_BIG_INBOX },
    });
    await stranger.POST("/v0/inboxes/{inbox_id}/messages", { params: { path }, body: { to: "a@example.com" } });
    await unauthorized.POST("/v0/inboxes/{inbox_id}/messages", { params: { path }, body: { to: "a@example.com" } });
    await (await exhaustedInbox()).POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path },
      body: { to: "a@example.com" },
    });
    const listed = expectData(
      await c.GET("/v0/inboxes/{inbox_id}/messages", { params: { path, query: { limit: 1 } } }),
    );
    expect(listed.messages[0]?.message_id).toBe(sent.message_id);
    await c.GET("/v0/inboxes/{inbox_id}/messages", { params: { path, query: { page_token: "forged" } } });
    await stranger.GET("/v0/inboxes/{inbox_id}/messages", { params: { path } });
    await unauthorized.GET("/v0/inboxes/{inbox_id}/messages", { params: { path } });
    await (await exhaustedInbox()).GET("/v0/inboxes/{inbox_id}/messages", { params: { path } });
    const messagePath = { ...path, message_id: sent.message_id };
    expectData(await c.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", { params: { path: messagePath } }));
    await c.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: { inbox_id: "bad", message_id: sent.message_id } },
    });
    await c.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: { ...path, message_id: "<missing@x>" } },
    });
    await unauthorized.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", { params: { path: messagePath } });
    await (await exhaustedInbox()).GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: messagePath },
    });

    // Threads
    expectData(await c.GET("/v0/inboxes/{inbox_id}/threads", { params: { path } }));
    await c.GET("/v0/inboxes/{inbox_id}/threads", { params: { path, query: { limit: 0 } } });
    await stranger.GET("/v0/inboxes/{inbox_id}/threads", { params: { path } });
    await unauthorized.GET("/v0/inboxes/{inbox_id}/threads", { params: { path } });
    await (await exhaustedInbox()).GET("/v0/inboxes/{inbox_id}/threads", { params: { path } });
    const threadPath = { ...path, thread_id: sent.thread_id };
    const thread = expectData(
      await c.GET("/v0/inboxes/{inbox_id}/threads/{thread_id}", { params: { path: threadPath } }),
    );
    expect(thread.messages.map((m) => m.labels)).toEqual([["sent", "received", "unread"]]);
    await c.GET("/v0/inboxes/{inbox_id}/threads/{thread_id}", { params: { path: { ...threadPath, inbox_id: "x" } } });
    await stranger.GET("/v0/inboxes/{inbox_id}/threads/{thread_id}", { params: { path: threadPath } });
    await unauthorized.GET("/v0/inboxes/{inbox_id}/threads/{thread_id}", { params: { path: threadPath } });
    await (await exhaustedInbox()).GET("/v0/inboxes/{inbox_id}/threads/{thread_id}", { params: { path: threadPath } });

    // Working a message: labels, downloads, replies
    const attached = expectData(
      await c.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path },
        body: { to: inbox.inbox_id, attachments: [{ filename: "a.txt", content: "YQ==" }] },
      }),
    );
    const attachedPath = { ...path, message_id: attached.message_id };
    expectData(
      await c.PATCH("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: attachedPath },
        body: { remove_labels: ["unread"] },
      }),
    );
    await c.PATCH("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: attachedPath },
      body: { add_labels: ["sent"] },
    });
    await c.PATCH("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: attachedPath },
      body: { add_labels: [TOO_BIG_INBOX] },
    });
    await stranger.PATCH("/v0/inboxes/{inbox_id}/messages/{message_id}", { params: { path: attachedPath }, body: {} });
    await unauthorized.PATCH("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: attachedPath },
      body: {},
    });
    await (await exhaustedInbox()).PATCH("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: attachedPath },
      body: {},
    });
    const attachmentId = expectData(
      await c.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", { params: { path: attachedPath } }),
    ).attachments[0]?.attachment_id;
    const attachmentPath = { params: { path: { ...attachedPath, attachment_id: attachmentId ?? "" } } };
    const attachmentRoute = "/v0/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}" as const;
    expectData(await c.GET(attachmentRoute, { ...attachmentPath, parseAs: "arrayBuffer" }));
    await c.GET(attachmentRoute, { params: { path: { ...attachmentPath.params.path, inbox_id: "bad" } } });
    await stranger.GET(attachmentRoute, attachmentPath);
    await unauthorized.GET(attachmentRoute, attachmentPath);
    await (await exhaustedInbox()).GET(attachmentRoute, attachmentPath);
    const rawRoute = "/v0/inboxes/{inbox_id}/messages/{message_id}/raw" as const;
    expectData(await c.GET(rawRoute, { params: { path: attachedPath }, parseAs: "text" }));
    await c.GET(rawRoute, { params: { path: { ...attachedPath, inbox_id: "bad" } } });
    await stranger.GET(rawRoute, { params: { path: attachedPath } });
    await unauthorized.GET(rawRoute, { params: { path: attachedPath } });
    await (await exhaustedInbox()).GET(rawRoute, { params: { path: attachedPath } });
    const replyRoute = "/v0/inboxes/{inbox_id}/messages/{message_id}/reply" as const;
    const external = expectData(
      await c.POST("/v0/inboxes/{inbox_id}/messages", { params: { path }, body: { to: "ada@example.com" } }),
    );
    const replyPath = { path: { ...path, message_id: external.message_id } };
    const keyedReply = { params: { ...replyPath, header: { "Idempotency-Key": "contract-reply" } } };
    expectData(await c.POST(replyRoute, { ...keyedReply, body: { text: "Thanks" } }));
    await c.POST(replyRoute, { ...keyedReply, body: { text: "Other" } });
    await c.POST(replyRoute, { params: replyPath, body: { reply_all: "yes" as unknown as boolean } });
    await c.POST(replyRoute, { params: replyPath, body: { text: TOO_BIG_INBOX } });
    await stranger.POST(replyRoute, { params: replyPath, body: { text: "x" } });
    await unauthorized.POST(replyRoute, { params: replyPath, body: { text: "x" } });
    await (await exhaustedInbox()).POST(replyRoute, { params: replyPath, body: { text: "x" } });

    // Webhooks
    const hook = expectData(await c.POST("/v0/webhooks", { body: { url: receiver.url, client_id: "contract-hook" } }));
    await c.POST("/v0/webhooks", { body: { url: "not a url" } });
    await c.POST("/v0/webhooks", { body: { url: `https://x.example.com/${TOO_BIG_INBOX}` } });
    await unauthorized.POST("/v0/webhooks", { body: { url: receiver.url } });
    await (await exhaustedInbox()).POST("/v0/webhooks", { body: { url: receiver.url } });
    expectData(await c.GET("/v0/webhooks", {}));
    await c.GET("/v0/webhooks", { params: { query: { limit: -1 } } });
    await unauthorized.GET("/v0/webhooks", {});
    await (await exhaustedInbox()).GET("/v0/webhooks", {});
    const hookPath = { params: { path: { webhook_id: hook.webhook_id } } };
    expectData(await c.GET("/v0/webhooks/{webhook_id}", hookPath));
    await stranger.GET("/v0/webhooks/{webhook_id}", hookPath);
    await unauthorized.GET("/v0/webhooks/{webhook_id}", hookPath);
    await (await exhaustedInbox()).GET("/v0/webhooks/{webhook_id}", hookPath);
    // No id holds the NUL character: the one webhook id that is a 400 rather than a 404.
    const nulHookPath = { params: { path: { webhook_id: "wh_\u0000" } } };
    await c.GET("/v0/webhooks/{webhook_id}", nulHookPath);
    const deliveriesRoute = "/v0/webhooks/{webhook_id}/deliveries" as const;
    expectData(await c.POST("/v0/inboxes/{inbox_id}/messages", { params: { path }, body: { to: "ada@example.com" } }));
    const [delivery] = expectData(await c.GET(deliveriesRoute, hookPath)).deliveries;
    await c.GET(deliveriesRoute, { params: { ...hookPath.params, query: { status: "lost" as never } } });
    await stranger.GET(deliveriesRoute, hookPath);
    await unauthorized.GET(deliveriesRoute, hookPath);
    await (await exhaustedInbox()).GET(deliveriesRoute, hookPath);
    const redeliverRoute = "/v0/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver" as const;
    const deliveryPath = {
      params: { path: { webhook_id: hook.webhook_id, delivery_id: delivery?.delivery_id ?? "" } },
    };
    expectData(await c.POST(redeliverRoute, deliveryPath));
    await c.POST(redeliverRoute, { params: { path: { webhook_id: hook.webhook_id, delivery_id: "dl_\u0000" } } });
    await stranger.POST(redeliverRoute, deliveryPath);
    await unauthorized.POST(redeliverRoute, deliveryPath);
    await (await exhaustedInbox()).POST(redeliverRoute, deliveryPath);
    expectData(await c.PUT("/v0/webhooks/{webhook_id}", { ...hookPath, body: { url: receiver.url, enabled: false } }));
    await c.PUT("/v0/webhooks/{webhook_id}", { ...hookPath, body: { enabled: true } as never });
    expectData(await c.POST("/v0/webhooks", { body: { url: receiver.url, client_id: "contract-hook-2" } }));
    await c.POST("/v0/webhooks", { body: { url: receiver.url, client_id: "contract-hook-3" } });
    await c.PUT("/v0/webhooks/{webhook_id}", {
      ...hookPath,
      body: { url: receiver.url, client_id: "contract-hook-2" },
    });
    await c.PUT("/v0/webhooks/{webhook_id}", { ...hookPath, body: { url: `https://x.example.com/${TOO_BIG_INBOX}` } });
    await stranger.PUT("/v0/webhooks/{webhook_id}", { ...hookPath, body: { url: receiver.url } });
    await unauthorized.PUT("/v0/webhooks/{webhook_id}", { ...hookPath, body: { url: receiver.url } });
    await (await exhaustedInbox()).PUT("/v0/webhooks/{webhook_id}", { ...hookPath, body: { url: receiver.url } });
    await stranger.DELETE("/v0/webhooks/{webhook_id}", hookPath);
    await c.DELETE("/v0/webhooks/{webhook_id}", nulHookPath);
    await unauthorized.DELETE("/v0/webhooks/{webhook_id}", hookPath);
    await (await exhaustedInbox()).DELETE("/v0/webhooks/{webhook_id}", hookPath);
    expect((await c.DELETE("/v0/webhooks/{webhook_id}", hookPath)).response.status).toBe(204);

    // Deleting an inbox
    await c.DELETE("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: "not-an-address" } } });
    await stranger.DELETE("/v0/inboxes/{inbox_id}", { params: { path } });
    await unauthorized.DELETE("/v0/inboxes/{inbox_id}", { params: { path } });
    await (await exhaustedInbox()).DELETE("/v0/inboxes/{inbox_id}", { params: { path } });
    expect((await c.DELETE("/v0/inboxes/{inbox_id}", { params: { path } })).response.status).toBe(204);

    // Domains
    expectData(await c.GET("/v0/domains", {}));
    await c.GET("/v0/domains", { params: { query: { limit: 500 } } });
    await unauthorized.GET("/v0/domains", {});
    await (await exhaustedInbox()).GET("/v0/domains", {});
    const domainPath = { params: { path: { domain_id: "pigeonhole.test" } } };
    expectData(await c.GET("/v0/domains/{domain_id}", domainPath));
    await c.GET("/v0/domains/{domain_id}", { params: { path: { domain_id: "x".repeat(254) } } });
    await c.GET("/v0/domains/{domain_id}", { params: { path: { domain_id: "partner.example" } } });
    await unauthorized.GET("/v0/domains/{domain_id}", domainPath);
    await (await exhaustedInbox()).GET("/v0/domains/{domain_id}", domainPath);

    const missing = documentedStatuses("inbox").filter((entry) => !observedResponses.has(entry));
    expect(missing).toEqual([]);
  });
});

describe("forum contract", () => {
  it("answers every operation as documented", async () => {
    const c = t.forum;
    const other = await t.newForumAgent("other-agent");
    const anonymous = forumClient(t.server.forum.url);
    const unauthorized = forumClient(t.server.forum.url, "not-a-key");
    const keyed = (key: string) => ({ header: { "Idempotency-Key": key } });

    // Agents
    const registered = expectData(
      await anonymous.POST("/api/v1/agents/register", { body: { name: "contract-agent", description: "Checks." } }),
    );
    await anonymous.POST("/api/v1/agents/register", { body: { name: "Not A Name" } });
    const taken = await anonymous.POST("/api/v1/agents/register", { body: { name: "contract-agent" } });
    expect(taken.error?.code).toBe("NAME_TAKEN");
    await anonymous.POST("/api/v1/agents/register", { body: { name: "big-agent", description: TOO_BIG_FORUM } });
    const limitedAnonymous = forumClient(limited.server.forum.url);
    expectData(await limitedAnonymous.POST("/api/v1/agents/register", { body: { name: "first-here" } }));
    await limitedAnonymous.POST("/api/v1/agents/register", { body: { name: "second-here" } });
    const me = expectData(await forumClient(t.server.forum.url, registered.api_key).GET("/api/v1/agents/me", {}));
    expect(me.agent).toEqual(registered.agent);
    await unauthorized.GET("/api/v1/agents/me", {});
    await (await exhaustedForum()).GET("/api/v1/agents/me", {});

    // Communities
    expectData(await c.GET("/api/v1/communities", { params: { query: { limit: 10, offset: 0 } } }));
    await c.GET("/api/v1/communities", { params: { query: { limit: 0 } } });
    await unauthorized.GET("/api/v1/communities", {});
    await (await exhaustedForum()).GET("/api/v1/communities", {});
    const communityBody = { name: "contract", display_name: "Contract", description: "Every operation." };
    const community = expectData(
      await c.POST("/api/v1/communities", { params: keyed("contract-community"), body: communityBody }),
    ).community;
    await c.POST("/api/v1/communities", { body: { name: "x", display_name: "X" } });
    const nameTaken = await c.POST("/api/v1/communities", { body: { name: "contract", display_name: "Again" } });
    expect(nameTaken.error?.code).toBe("NAME_TAKEN");
    await c.POST("/api/v1/communities", { body: { name: "big", display_name: "Big", description: TOO_BIG_FORUM } });
    await unauthorized.POST("/api/v1/communities", { body: communityBody });
    await (await exhaustedForum()).POST("/api/v1/communities", { body: communityBody });
    const communityPath = { params: { path: { community_name: "contract" } } };
    expectData(await c.GET("/api/v1/communities/{community_name}", communityPath));
    await c.GET("/api/v1/communities/{community_name}", { params: { path: { community_name: "Bad Name" } } });
    await c.GET("/api/v1/communities/{community_name}", { params: { path: { community_name: "nowhere" } } });
    await unauthorized.GET("/api/v1/communities/{community_name}", communityPath);
    await (await exhaustedForum()).GET("/api/v1/communities/{community_name}", communityPath);

    // Posts
    const postBody = { title: "Contract", content: "Every operation.", community_id: community.id };
    const post = expectData(await c.POST("/api/v1/posts", { params: keyed("contract-post"), body: postBody })).post;
    const postPath = { params: { path: { post_id: post.id } } };
    const missingPath = { params: { path: { post_id: MISSING_UUID } } };
    const badPath = { params: { path: { post_id: "not-a-uuid" } } };
    const reused = await c.POST("/api/v1/posts", { params: keyed("contract-post"), body: { ...postBody, title: "2" } });
    expect(reused.error?.code).toBe("IDEMPOTENCY_KEY_REUSED");
    await c.POST("/api/v1/posts", { body: { title: "", content: "x" } });
    await c.POST("/api/v1/posts", { body: { title: "t", content: "c", community_id: MISSING_UUID } });
    await c.POST("/api/v1/posts", { body: { title: "t", content: TOO_BIG_FORUM } });
    await unauthorized.POST("/api/v1/posts", { body: { title: "t", content: "c" } });
    await (await exhaustedForum()).POST("/api/v1/posts", { body: { title: "t", content: "c" } });

    const listed = expectData(
      await other.GET("/api/v1/posts", { params: { query: { sort: "new", community: "contract", limit: 10 } } }),
    );
    expect(listed.posts.map((p) => p.id)).toEqual([post.id]);
    await c.GET("/api/v1/posts", { params: { query: { sort: "top" as "hot" } } });
    await unauthorized.GET("/api/v1/posts", {});
    await (await exhaustedForum()).GET("/api/v1/posts", {});

    expectData(await other.GET("/api/v1/posts/{post_id}", postPath));
    await c.GET("/api/v1/posts/{post_id}", badPath);
    await c.GET("/api/v1/posts/{post_id}", missingPath);
    await unauthorized.GET("/api/v1/posts/{post_id}", postPath);
    await (await exhaustedForum()).GET("/api/v1/posts/{post_id}", postPath);

    // Comments
    const comment = expectData(
      await c.POST("/api/v1/posts/{post_id}/comments", {
        params: { ...postPath.params, ...keyed("contract-comment") },
        body: { content: "Hi" },
      }),
    ).comment;
    const reply = expectData(
      await other.POST("/api/v1/posts/{post_id}/comments", {
        ...postPath,
        body: { content: "Re", parent_id: comment.id },
      }),
    ).comment;
    const reusedComment = await c.POST("/api/v1/posts/{post_id}/comments", {
      params: { ...postPath.params, ...keyed("contract-comment") },
      body: { content: "Another" },
    });
    expect(reusedComment.error?.code).toBe("IDEMPOTENCY_KEY_REUSED");
    await c.POST("/api/v1/posts/{post_id}/comments", { ...postPath, body: { content: "" } });
    await c.POST("/api/v1/posts/{post_id}/comments", { ...missingPath, body: { content: "x" } });
    await c.POST("/api/v1/posts/{post_id}/comments", { ...postPath, body: { content: TOO_BIG_FORUM } });
    await unauthorized.POST("/api/v1/posts/{post_id}/comments", { ...postPath, body: { content: "x" } });
    await (await exhaustedForum()).POST("/api/v1/posts/{post_id}/comments", { ...postPath, body: { content: "x" } });
    const comments = expectData(await c.GET("/api/v1/posts/{post_id}/comments", postPath));
    expect(comments.comments.map((each) => each.id)).toEqual([comment.id, reply.id]);
    await c.GET("/api/v1/posts/{post_id}/comments", { params: { path: { post_id: post.id }, query: { limit: 1000 } } });
    await c.GET("/api/v1/posts/{post_id}/comments", missingPath);
    await unauthorized.GET("/api/v1/posts/{post_id}/comments", postPath);
    await (await exhaustedForum()).GET("/api/v1/posts/{post_id}/comments", postPath);

    // Votes
    expectData(await other.POST("/api/v1/posts/{post_id}/vote", { ...postPath, body: { direction: "up" } }));
    const selfVote = await c.POST("/api/v1/posts/{post_id}/vote", { ...postPath, body: { direction: "up" } });
    expect(selfVote.error?.code).toBe("SELF_VOTE");
    await other.POST("/api/v1/posts/{post_id}/vote", { ...postPath, body: { direction: "sideways" as "up" } });
    await other.POST("/api/v1/posts/{post_id}/vote", { ...missingPath, body: { direction: "up" } });
    await other.POST("/api/v1/posts/{post_id}/vote", { ...postPath, body: { direction: TOO_BIG_FORUM as "up" } });
    await unauthorized.POST("/api/v1/posts/{post_id}/vote", { ...postPath, body: { direction: "up" } });
    await (await exhaustedForum()).POST("/api/v1/posts/{post_id}/vote", { ...postPath, body: { direction: "up" } });

    // Deletes
    const commentPath = { params: { path: { comment_id: comment.id } } };
    const forbiddenComment = await other.DELETE("/api/v1/comments/{comment_id}", commentPath);
    expect(forbiddenComment.error?.code).toBe("FORBIDDEN");
    await c.DELETE("/api/v1/comments/{comment_id}", { params: { path: { comment_id: "not-a-uuid" } } });
    await unauthorized.DELETE("/api/v1/comments/{comment_id}", commentPath);
    await (await exhaustedForum()).DELETE("/api/v1/comments/{comment_id}", commentPath);
    expect((await c.DELETE("/api/v1/comments/{comment_id}", commentPath)).response.status).toBe(204);
    await c.DELETE("/api/v1/comments/{comment_id}", commentPath);

    const forbiddenPost = await other.DELETE("/api/v1/posts/{post_id}", postPath);
    expect(forbiddenPost.error?.code).toBe("FORBIDDEN");
    await c.DELETE("/api/v1/posts/{post_id}", badPath);
    await unauthorized.DELETE("/api/v1/posts/{post_id}", postPath);
    await (await exhaustedForum()).DELETE("/api/v1/posts/{post_id}", postPath);
    expect((await c.DELETE("/api/v1/posts/{post_id}", postPath)).response.status).toBe(204);
    await c.DELETE("/api/v1/posts/{post_id}", postPath);

    const missing = documentedStatuses("forum").filter((entry) => !observedResponses.has(entry));
    expect(missing).toEqual([]);
  });
});
