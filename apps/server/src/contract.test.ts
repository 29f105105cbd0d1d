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
import { API_KEYS_PER_POD } from "./inbox/key-handlers.ts";
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
  // Two webhooks (list entries, drafts) per pod: the contract's pod reaches the cap with its second and is refused a third.
  t = await startTestServer({ webhooksPerPod: 2, listEntriesPerPod: 2, draftsPerPod: 2 });
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

    // AgentMail's message operations: send at its path, reply all, forward, batches, delete
    const sendPathRoute = "/v0/inboxes/{inbox_id}/messages/send" as const;
    const keyedSendPath = { params: { path, header: { "Idempotency-Key": "contract-send-path" } } };
    expectData(await c.POST(sendPathRoute, { ...keyedSendPath, body: { to: "ada@example.com", text: "Hi" } }));
    await c.POST(sendPathRoute, { ...keyedSendPath, body: { to: "ada@example.com", text: "Other" } });
    await c.POST(sendPathRoute, { params: { path }, body: { to: "not an address" } });
    await c.POST(sendPathRoute, { params: { path }, body: { to: "ada@example.com", text: TOO_BIG_INBOX } });
    await stranger.POST(sendPathRoute, { params: { path }, body: { to: "ada@example.com" } });
    await unauthorized.POST(sendPathRoute, { params: { path }, body: { to: "ada@example.com" } });
    await (await exhaustedInbox()).POST(sendPathRoute, { params: { path }, body: { to: "ada@example.com" } });
    for (const [route, body] of [
      ["/v0/inboxes/{inbox_id}/messages/{message_id}/reply-all", { text: "All" }],
      ["/v0/inboxes/{inbox_id}/messages/{message_id}/forward", { to: "grace@example.com", text: "See below" }],
    ] as const) {
      const keyed = { params: { ...replyPath, header: { "Idempotency-Key": `contract-${route.length}` } } };
      expectData(await c.POST(route, { ...keyed, body }));
      await c.POST(route, { ...keyed, body: { ...body, text: "Other" } });
      await c.POST(route, { params: replyPath, body: { ...body, text: 1 as unknown as string } });
      await c.POST(route, { params: replyPath, body: { ...body, text: TOO_BIG_INBOX } });
      await stranger.POST(route, { params: replyPath, body });
      await unauthorized.POST(route, { params: replyPath, body });
      await (await exhaustedInbox()).POST(route, { params: replyPath, body });
    }
    for (const route of [
      "/v0/inboxes/{inbox_id}/messages/batch-get",
      "/v0/inboxes/{inbox_id}/messages/batch-update",
    ] as const) {
      const body = { message_ids: [attached.message_id], add_labels: ["batched"] };
      const request = route.endsWith("get") ? { message_ids: body.message_ids } : body;
      expectData(await c.POST(route, { params: { path }, body: request }));
      await c.POST(route, { params: { path }, body: { message_ids: [] } });
      await c.POST(route, { params: { path }, body: { message_ids: [TOO_BIG_INBOX] } });
      await stranger.POST(route, { params: { path }, body: request });
      await unauthorized.POST(route, { params: { path }, body: request });
      await (await exhaustedInbox()).POST(route, { params: { path }, body: request });
    }
    const messageRoute = "/v0/inboxes/{inbox_id}/messages/{message_id}" as const;
    await c.DELETE(messageRoute, { params: { path: { ...attachedPath, inbox_id: "bad" } } });
    await stranger.DELETE(messageRoute, { params: { path: attachedPath } });
    await unauthorized.DELETE(messageRoute, { params: { path: attachedPath } });
    await (await exhaustedInbox()).DELETE(messageRoute, { params: { path: attachedPath } });

    // Threads: relabel, an attachment by thread, every inbox's threads, delete
    const threadRoute = "/v0/inboxes/{inbox_id}/threads/{thread_id}" as const;
    const attachedThread = { params: { path: { ...path, thread_id: attached.thread_id } } };
    expectData(await c.PATCH(threadRoute, { ...attachedThread, body: { add_labels: ["important"] } }));
    await c.PATCH(threadRoute, { ...attachedThread, body: { add_labels: ["received"] } });
    await c.PATCH(threadRoute, { ...attachedThread, body: { add_labels: [TOO_BIG_INBOX] } });
    await stranger.PATCH(threadRoute, { ...attachedThread, body: {} });
    await unauthorized.PATCH(threadRoute, { ...attachedThread, body: {} });
    await (await exhaustedInbox()).PATCH(threadRoute, { ...attachedThread, body: {} });
    const threadAttachmentRoute = "/v0/inboxes/{inbox_id}/threads/{thread_id}/attachments/{attachment_id}" as const;
    const threadAttachmentPath = {
      params: { path: { ...attachedThread.params.path, attachment_id: attachmentId ?? "" } },
    };
    expectData(await c.GET(threadAttachmentRoute, { ...threadAttachmentPath, parseAs: "arrayBuffer" }));
    await c.GET(threadAttachmentRoute, { params: { path: { ...threadAttachmentPath.params.path, inbox_id: "bad" } } });
    await stranger.GET(threadAttachmentRoute, threadAttachmentPath);
    await unauthorized.GET(threadAttachmentRoute, threadAttachmentPath);
    await (await exhaustedInbox()).GET(threadAttachmentRoute, threadAttachmentPath);
    expectData(await c.GET("/v0/threads", { params: { query: { limit: 5 } } }));
    await c.GET("/v0/threads", { params: { query: { limit: 500 } } });
    await unauthorized.GET("/v0/threads", {});
    await (await exhaustedInbox()).GET("/v0/threads", {});
    const podThreadPath = { params: { path: { thread_id: attached.thread_id } } };
    expectData(await c.GET("/v0/threads/{thread_id}", podThreadPath));
    await c.GET("/v0/threads/{thread_id}", { params: { path: { thread_id: "thd_\u0000" } } });
    await stranger.GET("/v0/threads/{thread_id}", podThreadPath);
    await unauthorized.GET("/v0/threads/{thread_id}", podThreadPath);
    await (await exhaustedInbox()).GET("/v0/threads/{thread_id}", podThreadPath);

    // A signed download link, as a request for JSON gets one; it needs no key
    const jsonLink = await fetch(
      `${t.server.inbox.url}/v0/inboxes/${encodeURIComponent(path.inbox_id)}/messages/${encodeURIComponent(attached.message_id)}/attachments/${attachmentId}`,
      { headers: { authorization: `Bearer ${t.server.inbox.apiKey}`, accept: "application/json" } },
    );
    const { download_url: downloadUrl } = (await jsonLink.json()) as { download_url: string };
    const token = downloadUrl.split("/v0/downloads/")[1] ?? "";
    expectData(
      await unauthorized.GET("/v0/downloads/{token}", { params: { path: { token } }, parseAs: "arrayBuffer" }),
    );
    await unauthorized.GET("/v0/downloads/{token}", { params: { path: { token: "x".repeat(5000) } } });
    await unauthorized.GET("/v0/downloads/{token}", { params: { path: { token: `${token}x` } } });
    const limitedLinks = inboxClient(limited.server.inbox.url, "not-a-key");
    await limitedLinks.GET("/v0/downloads/{token}", { params: { path: { token } } });
    await limitedLinks.GET("/v0/downloads/{token}", { params: { path: { token } } });

    await c.DELETE(threadRoute, { params: { path: { ...attachedThread.params.path, inbox_id: "bad" } } });
    await stranger.DELETE(threadRoute, attachedThread);
    await unauthorized.DELETE(threadRoute, attachedThread);
    await (await exhaustedInbox()).DELETE(threadRoute, attachedThread);
    expect((await c.DELETE(messageRoute, { params: { path: replyPath.path } })).response.status).toBe(204);
    expect((await c.DELETE(threadRoute, attachedThread)).response.status).toBe(204);

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

    // Search
    const searchQuery = { q: "contract" };
    expectData(await c.GET("/v0/inboxes/search", { params: { query: searchQuery } }));
    await c.GET("/v0/inboxes/search", { params: { query: { q: "@@" } } });
    await unauthorized.GET("/v0/inboxes/search", { params: { query: searchQuery } });
    await (await exhaustedInbox()).GET("/v0/inboxes/search", { params: { query: searchQuery } });
    for (const route of ["/v0/inboxes/{inbox_id}/messages/search", "/v0/inboxes/{inbox_id}/threads/search"] as const) {
      expectData(await c.GET(route, { params: { path, query: searchQuery } }));
      await c.GET(route, { params: { path, query: { q: "contract", before: "yesterday" } } });
      await stranger.GET(route, { params: { path, query: searchQuery } });
      await unauthorized.GET(route, { params: { path, query: searchQuery } });
      await (await exhaustedInbox()).GET(route, { params: { path, query: searchQuery } });
    }
    expectData(await c.GET("/v0/threads/search", { params: { query: searchQuery } }));
    await c.GET("/v0/threads/search", { params: { query: { q: "x".repeat(257) } } });
    await unauthorized.GET("/v0/threads/search", { params: { query: searchQuery } });
    await (await exhaustedInbox()).GET("/v0/threads/search", { params: { query: searchQuery } });

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
    const zoneRoute = "/v0/domains/{domain_id}/zone-file" as const;
    expectData(await c.GET(zoneRoute, { ...domainPath, parseAs: "text" }));
    await c.GET(zoneRoute, { params: { path: { domain_id: "x".repeat(254) } } });
    await c.GET(zoneRoute, { params: { path: { domain_id: "partner.example" } } });
    await unauthorized.GET(zoneRoute, domainPath);
    await (await exhaustedInbox()).GET(zoneRoute, domainPath);
    expectData(await c.POST("/v0/domains", { body: { domain: "pigeonhole.test" } }));
    await c.POST("/v0/domains", { body: { domain: "partner.example" } });
    await c.POST("/v0/domains", { body: { domain: TOO_BIG_INBOX } });
    await unauthorized.POST("/v0/domains", { body: { domain: "pigeonhole.test" } });
    await (await exhaustedInbox()).POST("/v0/domains", { body: { domain: "pigeonhole.test" } });
    const verifyRoute = "/v0/domains/{domain_id}/verify" as const;
    expect((await c.POST(verifyRoute, domainPath)).response.status).toBe(204);
    await c.POST(verifyRoute, { params: { path: { domain_id: "x".repeat(254) } } });
    await c.POST(verifyRoute, { params: { path: { domain_id: "partner.example" } } });
    await unauthorized.POST(verifyRoute, domainPath);
    await (await exhaustedInbox()).POST(verifyRoute, domainPath);

    // Updating an inbox and editing a webhook (AgentMail's PATCH)
    const kept = expectData(await c.POST("/v0/inboxes", { body: { username: "contract-kept" } }));
    const keptPath = { params: { path: { inbox_id: kept.inbox_id } } };
    expectData(await c.PATCH("/v0/inboxes/{inbox_id}", { ...keptPath, body: { metadata: { tier: 1 } } }));
    await c.PATCH("/v0/inboxes/{inbox_id}", { ...keptPath, body: { display_name: "x".repeat(300) } });
    await c.PATCH("/v0/inboxes/{inbox_id}", { ...keptPath, body: { display_name: TOO_BIG_INBOX } });
    await stranger.PATCH("/v0/inboxes/{inbox_id}", { ...keptPath, body: {} });
    await unauthorized.PATCH("/v0/inboxes/{inbox_id}", { ...keptPath, body: {} });
    await (await exhaustedInbox()).PATCH("/v0/inboxes/{inbox_id}", { ...keptPath, body: {} });
    const edited = expectData(await c.POST("/v0/webhooks", { body: { url: receiver.url } }));
    const editedPath = { params: { path: { webhook_id: edited.webhook_id } } };
    expectData(await c.PATCH("/v0/webhooks/{webhook_id}", { ...editedPath, body: { add_inbox_ids: [kept.inbox_id] } }));
    await c.PATCH("/v0/webhooks/{webhook_id}", { ...editedPath, body: { enabled: "no" as unknown as boolean } });
    await c.PATCH("/v0/webhooks/{webhook_id}", { ...editedPath, body: { client_id: "contract-hook-2" } });
    await c.PATCH("/v0/webhooks/{webhook_id}", {
      ...editedPath,
      body: { url: `https://x.example.com/${TOO_BIG_INBOX}` },
    });
    await stranger.PATCH("/v0/webhooks/{webhook_id}", { ...editedPath, body: {} });
    await unauthorized.PATCH("/v0/webhooks/{webhook_id}", { ...editedPath, body: {} });
    await (await exhaustedInbox()).PATCH("/v0/webhooks/{webhook_id}", { ...editedPath, body: {} });

    // Events and their counts
    expectData(await c.POST("/v0/inboxes/{inbox_id}/messages", { ...keptPath, body: { to: kept.inbox_id } }));
    const eventsRoute = "/v0/inboxes/{inbox_id}/events" as const;
    expect(expectData(await c.GET(eventsRoute, keptPath)).events.length).toBeGreaterThan(0);
    await c.GET(eventsRoute, { params: { ...keptPath.params, query: { limit: 500 } } });
    await stranger.GET(eventsRoute, keptPath);
    await unauthorized.GET(eventsRoute, keptPath);
    await (await exhaustedInbox()).GET(eventsRoute, keptPath);
    const inboxMetricsRoute = "/v0/inboxes/{inbox_id}/metrics/events" as const;
    expectData(await c.GET(inboxMetricsRoute, keptPath));
    await c.GET(inboxMetricsRoute, { params: { ...keptPath.params, query: { period: 0 } } });
    await stranger.GET(inboxMetricsRoute, keptPath);
    await unauthorized.GET(inboxMetricsRoute, keptPath);
    await (await exhaustedInbox()).GET(inboxMetricsRoute, keptPath);
    expectData(await c.GET("/v0/metrics/events", { params: { query: { event_types: ["message.sent"] } } }));
    await c.GET("/v0/metrics/events", { params: { query: { event_types: ["message.lost"] } } });
    await unauthorized.GET("/v0/metrics/events", {});
    await (await exhaustedInbox()).GET("/v0/metrics/events", {});

    // API keys and auth/me
    const me = expectData(await c.GET("/v0/auth/me", {}));
    await unauthorized.GET("/v0/auth/me", {});
    await (await exhaustedInbox()).GET("/v0/auth/me", {});
    const newKey = expectData(await c.POST("/v0/api-keys", { body: { name: "contract" } }));
    await c.POST("/v0/api-keys", { body: { permissions: {} } as never });
    await c.POST("/v0/api-keys", { body: { name: TOO_BIG_INBOX } });
    await unauthorized.POST("/v0/api-keys", { body: {} });
    await (await exhaustedInbox()).POST("/v0/api-keys", { body: {} });
    const crowded = await t.newInboxTenant();
    for (let created = 1; created < API_KEYS_PER_POD; created += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, API_KEYS_PER_POD - created) }, () =>
          crowded.POST("/v0/api-keys", { body: {} }),
        ),
      );
    }
    await crowded.POST("/v0/api-keys", { body: {} });
    expectData(await c.GET("/v0/api-keys", {}));
    await c.GET("/v0/api-keys", { params: { query: { limit: 500 } } });
    await unauthorized.GET("/v0/api-keys", {});
    await (await exhaustedInbox()).GET("/v0/api-keys", {});
    const keyPath = { params: { path: { api_key_id: newKey.api_key_id } } };
    expectData(await c.GET("/v0/api-keys/{api_key_id}", keyPath));
    await c.GET("/v0/api-keys/{api_key_id}", { params: { path: { api_key_id: "k".repeat(65) } } });
    await stranger.GET("/v0/api-keys/{api_key_id}", keyPath);
    await unauthorized.GET("/v0/api-keys/{api_key_id}", keyPath);
    await (await exhaustedInbox()).GET("/v0/api-keys/{api_key_id}", keyPath);
    await c.DELETE("/v0/api-keys/{api_key_id}", { params: { path: { api_key_id: "k".repeat(65) } } });
    await stranger.DELETE("/v0/api-keys/{api_key_id}", keyPath);
    await unauthorized.DELETE("/v0/api-keys/{api_key_id}", keyPath);
    await (await exhaustedInbox()).DELETE("/v0/api-keys/{api_key_id}", keyPath);
    expect((await c.DELETE("/v0/api-keys/{api_key_id}", keyPath)).response.status).toBe(204);
    await c.DELETE("/v0/api-keys/{api_key_id}", { params: { path: { api_key_id: me.api_key_id } } });

    // Drafts, an inbox's and the pod's
    const drafting = expectData(await c.POST("/v0/inboxes", { body: { username: "contract-drafts" } }));
    const draftsRoute = "/v0/inboxes/{inbox_id}/drafts" as const;
    const draftsPath = { params: { path: { inbox_id: drafting.inbox_id } } };
    const oversize = { text: "x".repeat(11 * 1024 * 1024) };
    const draft = expectData(await c.POST(draftsRoute, { ...draftsPath, body: { to: ["ada@example.com"] } }));
    await c.POST(draftsRoute, { ...draftsPath, body: { send_at: "tomorrow" } });
    await c.POST(draftsRoute, { ...draftsPath, body: oversize });
    await stranger.POST(draftsRoute, { ...draftsPath, body: {} });
    await unauthorized.POST(draftsRoute, { ...draftsPath, body: {} });
    await (await exhaustedInbox()).POST(draftsRoute, { ...draftsPath, body: {} });
    expectData(await c.GET(draftsRoute, draftsPath));
    await c.GET(draftsRoute, { params: { ...draftsPath.params, query: { limit: 500 } } });
    await stranger.GET(draftsRoute, draftsPath);
    await unauthorized.GET(draftsRoute, draftsPath);
    await (await exhaustedInbox()).GET(draftsRoute, draftsPath);
    const draftRoute = "/v0/inboxes/{inbox_id}/drafts/{draft_id}" as const;
    const draftPath = { params: { path: { inbox_id: drafting.inbox_id, draft_id: draft.draft_id } } };
    const badInboxPath = { params: { path: { inbox_id: "not-an-address", draft_id: draft.draft_id } } };
    expectData(await c.GET(draftRoute, draftPath));
    await c.GET(draftRoute, badInboxPath);
    await stranger.GET(draftRoute, draftPath);
    await unauthorized.GET(draftRoute, draftPath);
    await (await exhaustedInbox()).GET(draftRoute, draftPath);
    expectData(await c.PATCH(draftRoute, { ...draftPath, body: { subject: "Contract" } }));
    await c.PATCH(draftRoute, { ...draftPath, body: { send_at: "tomorrow" } });
    await c.PATCH(draftRoute, { ...draftPath, body: oversize });
    await stranger.PATCH(draftRoute, { ...draftPath, body: {} });
    await unauthorized.PATCH(draftRoute, { ...draftPath, body: {} });
    await (await exhaustedInbox()).PATCH(draftRoute, { ...draftPath, body: {} });
    expectData(await c.GET("/v0/drafts", {}));
    await c.GET("/v0/drafts", { params: { query: { limit: 500 } } });
    await unauthorized.GET("/v0/drafts", {});
    await (await exhaustedInbox()).GET("/v0/drafts", {});
    const podDraftPath = { params: { path: { draft_id: draft.draft_id } } };
    expectData(await c.GET("/v0/drafts/{draft_id}", podDraftPath));
    await c.GET("/v0/drafts/{draft_id}", { params: { path: { draft_id: "d".repeat(65) } } });
    await stranger.GET("/v0/drafts/{draft_id}", podDraftPath);
    await unauthorized.GET("/v0/drafts/{draft_id}", podDraftPath);
    await (await exhaustedInbox()).GET("/v0/drafts/{draft_id}", podDraftPath);
    const sendRoute = "/v0/inboxes/{inbox_id}/drafts/{draft_id}/send" as const;
    const unaddressed = expectData(await c.POST(draftsRoute, { ...draftsPath, body: {} }));
    const unaddressedPath = { params: { path: { inbox_id: drafting.inbox_id, draft_id: unaddressed.draft_id } } };
    // The pod holds 2 drafts, the most it may (draftsPerPod): a third is refused.
    expect((await c.POST(draftsRoute, { ...draftsPath, body: {} })).error?.error.details.code).toBe(
      "DRAFT_LIMIT_REACHED",
    );
    await c.POST(sendRoute, { ...unaddressedPath, body: {} });
    await c.POST(sendRoute, { ...draftPath, body: oversize as never });
    await stranger.POST(sendRoute, { ...draftPath, body: {} });
    await unauthorized.POST(sendRoute, { ...draftPath, body: {} });
    await (await exhaustedInbox()).POST(sendRoute, { ...draftPath, body: {} });
    expectData(await c.POST(sendRoute, { ...draftPath, body: { add_labels: ["contract"] } }));
    await c.DELETE(draftRoute, badInboxPath);
    await stranger.DELETE(draftRoute, unaddressedPath);
    await unauthorized.DELETE(draftRoute, unaddressedPath);
    await (await exhaustedInbox()).DELETE(draftRoute, unaddressedPath);
    expect((await c.DELETE(draftRoute, unaddressedPath)).response.status).toBe(204);

    // Allow and block lists, the pod's and an inbox's; the pod holds 2 entries at most (listEntriesPerPod)
    const listRoute = "/v0/lists/{direction}/{type}" as const;
    const listPath = { params: { path: { direction: "receive", type: "block" } as const } };
    const listEntryRoute = "/v0/lists/{direction}/{type}/{entry}" as const;
    const listEntryPath = { params: { path: { ...listPath.params.path, entry: "spam@example.com" } } };
    const badEntryPath = { params: { path: { ...listPath.params.path, entry: "not a domain" } } };
    expectData(await c.POST(listRoute, { ...listPath, body: { entry: "spam@example.com" } }));
    await c.POST(listRoute, { ...listPath, body: { entry: "not a domain" } });
    await c.POST(listRoute, { ...listPath, body: { entry: TOO_BIG_INBOX } });
    await unauthorized.POST(listRoute, { ...listPath, body: { entry: "example.com" } });
    await (await exhaustedInbox()).POST(listRoute, { ...listPath, body: { entry: "example.com" } });
    expectData(await c.GET(listRoute, listPath));
    await c.GET(listRoute, { params: { ...listPath.params, query: { limit: 500 } } });
    await unauthorized.GET(listRoute, listPath);
    await (await exhaustedInbox()).GET(listRoute, listPath);
    expectData(await c.GET(listEntryRoute, listEntryPath));
    await c.GET(listEntryRoute, badEntryPath);
    await stranger.GET(listEntryRoute, listEntryPath);
    await unauthorized.GET(listEntryRoute, listEntryPath);
    await (await exhaustedInbox()).GET(listEntryRoute, listEntryPath);
    const inboxListRoute = "/v0/inboxes/{inbox_id}/lists/{direction}/{type}" as const;
    const inboxListPath = { params: { path: { ...path, direction: "send", type: "allow" } as const } };
    const inboxEntryRoute = "/v0/inboxes/{inbox_id}/lists/{direction}/{type}/{entry}" as const;
    const inboxEntryPath = { params: { path: { ...inboxListPath.params.path, entry: "partner.example" } } };
    expectData(await c.POST(inboxListRoute, { ...inboxListPath, body: { entry: "partner.example" } }));
    await c.POST(inboxListRoute, { ...inboxListPath, body: { entry: "one-too-many.example" } });
    await c.POST(listRoute, { ...listPath, body: { entry: "one-too-many.example" } });
    await c.POST(inboxListRoute, { ...inboxListPath, body: { entry: "ada@" } });
    await c.POST(inboxListRoute, { ...inboxListPath, body: { entry: TOO_BIG_INBOX } });
    await stranger.POST(inboxListRoute, { ...inboxListPath, body: { entry: "example.com" } });
    await unauthorized.POST(inboxListRoute, { ...inboxListPath, body: { entry: "example.com" } });
    await (await exhaustedInbox()).POST(inboxListRoute, { ...inboxListPath, body: { entry: "example.com" } });
    expectData(await c.GET(inboxListRoute, inboxListPath));
    await c.GET(inboxListRoute, { params: { ...inboxListPath.params, query: { page_token: "not-issued" } } });
    await stranger.GET(inboxListRoute, inboxListPath);
    await unauthorized.GET(inboxListRoute, inboxListPath);
    await (await exhaustedInbox()).GET(inboxListRoute, inboxListPath);
    expectData(await c.GET(inboxEntryRoute, inboxEntryPath));
    await c.GET(inboxEntryRoute, { params: { path: { ...inboxEntryPath.params.path, entry: "-bad.example" } } });
    await stranger.GET(inboxEntryRoute, inboxEntryPath);
    await unauthorized.GET(inboxEntryRoute, inboxEntryPath);
    await (await exhaustedInbox()).GET(inboxEntryRoute, inboxEntryPath);
    await c.DELETE(inboxEntryRoute, { params: { path: { ...inboxEntryPath.params.path, entry: "-bad.example" } } });
    await stranger.DELETE(inboxEntryRoute, inboxEntryPath);
    await unauthorized.DELETE(inboxEntryRoute, inboxEntryPath);
    await (await exhaustedInbox()).DELETE(inboxEntryRoute, inboxEntryPath);
    expect((await c.DELETE(inboxEntryRoute, inboxEntryPath)).response.status).toBe(204);
    await c.DELETE(listEntryRoute, badEntryPath);
    await stranger.DELETE(listEntryRoute, listEntryPath);
    await unauthorized.DELETE(listEntryRoute, listEntryPath);
    await (await exhaustedInbox()).DELETE(listEntryRoute, listEntryPath);
    expect((await c.DELETE(listEntryRoute, listEntryPath)).response.status).toBe(204);

    // Deleting an inbox: last, as every block above reads the contract inbox
    await c.DELETE("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: "not-an-address" } } });
    await stranger.DELETE("/v0/inboxes/{inbox_id}", { params: { path } });
    await unauthorized.DELETE("/v0/inboxes/{inbox_id}", { params: { path } });
    await (await exhaustedInbox()).DELETE("/v0/inboxes/{inbox_id}", { params: { path } });
    expect((await c.DELETE("/v0/inboxes/{inbox_id}", { params: { path } })).response.status).toBe(204);

    const missing = documentedStatuses("inbox").filter((entry) => !observedResponses.has(entry));
    expect(missing).toEqual([]);
    // Several hundred requests on two databases: more than the default 30 s when the machine is loaded.
  }, 120_000);
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
    await c.GET("/api/v1/posts", { params: { query: { sort: "best" as "hot" } } });
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

    // Profiles, follows, subscriptions, the feed and search
    const profileQuery = { params: { query: { name: "other-agent" } } };
    expectData(await c.GET("/api/v1/agents/profile", profileQuery));
    await c.GET("/api/v1/agents/profile", { params: { query: { name: "Bad Name" } } });
    await c.GET("/api/v1/agents/profile", { params: { query: { name: "nobody-here" } } });
    await unauthorized.GET("/api/v1/agents/profile", profileQuery);
    await (await exhaustedForum()).GET("/api/v1/agents/profile", profileQuery);
    expectData(await other.PATCH("/api/v1/agents/me", { body: { description: "Checks too.", metadata: { a: 1 } } }));
    await other.PATCH("/api/v1/agents/me", { body: { metadata: { text: "x".repeat(5000) } } });
    await other.PATCH("/api/v1/agents/me", { body: { description: TOO_BIG_FORUM } });
    await unauthorized.PATCH("/api/v1/agents/me", { body: {} });
    await (await exhaustedForum()).PATCH("/api/v1/agents/me", { body: {} });
    const followPath = { params: { path: { agent_name: "other-agent" } } };
    // Following and subscribing, then undoing both: each of the four with every documented answer.
    const badAgent = { params: { path: { agent_name: "Bad Name" } } };
    const missingAgent = { params: { path: { agent_name: "nobody-here" } } };
    const badCommunity = { params: { path: { community_name: "Bad Name" } } };
    const missingCommunity = { params: { path: { community_name: "nowhere" } } };
    const followRoute = "/api/v1/agents/{agent_name}/follow" as const;
    const subscribeRoute = "/api/v1/communities/{community_name}/subscribe" as const;
    expectData(await c.POST(followRoute, followPath));
    await c.POST(followRoute, badAgent);
    await c.POST(followRoute, missingAgent);
    await unauthorized.POST(followRoute, followPath);
    await (await exhaustedForum()).POST(followRoute, followPath);
    expectData(await c.POST(subscribeRoute, communityPath));
    await c.POST(subscribeRoute, badCommunity);
    await c.POST(subscribeRoute, missingCommunity);
    await unauthorized.POST(subscribeRoute, communityPath);
    await (await exhaustedForum()).POST(subscribeRoute, communityPath);
    expectData(await c.DELETE(followRoute, followPath));
    await c.DELETE(followRoute, badAgent);
    await c.DELETE(followRoute, missingAgent);
    await unauthorized.DELETE(followRoute, followPath);
    await (await exhaustedForum()).DELETE(followRoute, followPath);
    expectData(await c.DELETE(subscribeRoute, communityPath));
    await c.DELETE(subscribeRoute, badCommunity);
    await c.DELETE(subscribeRoute, missingCommunity);
    await unauthorized.DELETE(subscribeRoute, communityPath);
    await (await exhaustedForum()).DELETE(subscribeRoute, communityPath);
    const selfFollow = await other.POST("/api/v1/agents/{agent_name}/follow", followPath);
    expect(selfFollow.error?.code).toBe("SELF_FOLLOW");
    expectData(await c.GET("/api/v1/feed", { params: { query: { sort: "new", limit: 10 } } }));
    await c.GET("/api/v1/feed", { params: { query: { sort: "sideways" as "new" } } });
    await unauthorized.GET("/api/v1/feed", {});
    await (await exhaustedForum()).GET("/api/v1/feed", {});
    const found = expectData(await c.GET("/api/v1/search", { params: { query: { q: "contract", type: "all" } } }));
    expect(found.results.map((r) => r.id)).toContain(post.id);
    await c.GET("/api/v1/search", { params: { query: { q: "" } } });
    await unauthorized.GET("/api/v1/search", { params: { query: { q: "contract" } } });
    await (await exhaustedForum()).GET("/api/v1/search", { params: { query: { q: "contract" } } });

    // Comment votes and single comments
    const commentPath = { params: { path: { comment_id: comment.id } } };
    const missingComment = { params: { path: { comment_id: MISSING_UUID } } };
    const up = { direction: "up" as const };
    expectData(await other.POST("/api/v1/comments/{comment_id}/vote", { ...commentPath, body: up }));
    const selfCommentVote = await c.POST("/api/v1/comments/{comment_id}/vote", { ...commentPath, body: up });
    expect(selfCommentVote.error?.code).toBe("SELF_VOTE");
    await other.POST("/api/v1/comments/{comment_id}/vote", { ...missingComment, body: up });
    await other.POST("/api/v1/comments/{comment_id}/vote", {
      ...commentPath,
      body: { direction: TOO_BIG_FORUM as "up" },
    });
    await unauthorized.POST("/api/v1/comments/{comment_id}/vote", { ...commentPath, body: up });
    await (await exhaustedForum()).POST("/api/v1/comments/{comment_id}/vote", { ...commentPath, body: up });
    expect(expectData(await other.GET("/api/v1/comments/{comment_id}", commentPath)).comment.my_vote).toBe("up");
    await c.GET("/api/v1/comments/{comment_id}", { params: { path: { comment_id: "not-a-uuid" } } });
    await c.GET("/api/v1/comments/{comment_id}", missingComment);
    await unauthorized.GET("/api/v1/comments/{comment_id}", commentPath);
    await (await exhaustedForum()).GET("/api/v1/comments/{comment_id}", commentPath);

    // Moderators and pins: the agent of `c` created `contract`, so it owns it.
    const outsider = await t.newForumAgent("outsider-agent");
    const moderators = "/api/v1/communities/{community_name}/moderators" as const;
    const nowhere = { params: { path: { community_name: "nowhere" } } };
    expectData(await c.POST(moderators, { ...communityPath, body: { agent_name: "other-agent" } }));
    const keyedModerator = { params: { ...communityPath.params, header: { "Idempotency-Key": "contract-moderator" } } };
    expectData(await c.POST(moderators, { ...keyedModerator, body: { agent_name: "other-agent" } }));
    const reusedModerator = await c.POST(moderators, { ...keyedModerator, body: { agent_name: "outsider-agent" } });
    expect(reusedModerator.error?.code).toBe("IDEMPOTENCY_KEY_REUSED");
    await c.POST(moderators, { ...communityPath, body: { agent_name: "Bad Name" } });
    await outsider.POST(moderators, { ...communityPath, body: { agent_name: "outsider-agent" } });
    await c.POST(moderators, { ...nowhere, body: { agent_name: "other-agent" } });
    await c.POST(moderators, { ...communityPath, body: { agent_name: TOO_BIG_FORUM } });
    await unauthorized.POST(moderators, { ...communityPath, body: { agent_name: "other-agent" } });
    await (await exhaustedForum()).POST(moderators, { ...communityPath, body: { agent_name: "other-agent" } });
    expect(expectData(await outsider.GET(moderators, communityPath)).moderators.map((m) => m.name)).toEqual([
      "other-agent",
    ]);
    await c.GET(moderators, { params: { path: { community_name: "Bad Name" } } });
    await c.GET(moderators, nowhere);
    await unauthorized.GET(moderators, communityPath);
    await (await exhaustedForum()).GET(moderators, communityPath);
    const pinPath = "/api/v1/posts/{post_id}/pin" as const;
    expect(expectData(await other.POST(pinPath, postPath)).post.pinned).toBe(true);
    await c.POST(pinPath, badPath);
    await outsider.POST(pinPath, postPath);
    await c.POST(pinPath, missingPath);
    for (const title of ["second", "third", "fourth"]) {
      const more = expectData(await c.POST("/api/v1/posts", { body: { ...postBody, title } })).post;
      await c.POST(pinPath, { params: { path: { post_id: more.id } } });
    }
    await unauthorized.POST(pinPath, postPath);
    await (await exhaustedForum()).POST(pinPath, postPath);
    expect((await other.DELETE(pinPath, postPath)).response.status).toBe(204);
    await c.DELETE(pinPath, badPath);
    await outsider.DELETE(pinPath, postPath);
    await c.DELETE(pinPath, missingPath);
    await unauthorized.DELETE(pinPath, postPath);
    await (await exhaustedForum()).DELETE(pinPath, postPath);
    const removal = { params: { ...communityPath.params, query: { agent_name: "other-agent" } } };
    await outsider.DELETE(moderators, removal);
    await c.DELETE(moderators, { params: { ...communityPath.params, query: { agent_name: "Bad Name" } } });
    await c.DELETE(moderators, { params: { ...nowhere.params, query: { agent_name: "other-agent" } } });
    await unauthorized.DELETE(moderators, removal);
    await (await exhaustedForum()).DELETE(moderators, removal);
    expect((await c.DELETE(moderators, removal)).response.status).toBe(204);

    // Deletes
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
