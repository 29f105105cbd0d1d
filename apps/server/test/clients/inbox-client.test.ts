import { fakeFetch, forward } from "@pigeonhole/fake-fetch";
import type {
  Inbox,
  InboxClient,
  InboxClientOptions,
  ListInboxesResponse,
  ListMessagesResponse,
  ListThreadsResponse,
  ListWebhooksResponse,
  Message,
  MessageItem,
  SendMessageResponse,
  Thread,
  Webhook,
  WebhookEvent,
} from "@pigeonhole/inbox";
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createInboxClient,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  verifyWebhook,
  WebhookVerificationError,
} from "@pigeonhole/inbox";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Server } from "../../src/index.ts";
import { startWebhookReceiver } from "../support/webhook-receiver.ts";
import { expectConforms } from "./conformance.ts";
import { DAY_MS, freezeBeforeWindowEnd, HOUR_MS, MINUTE_MS } from "./limit-window.ts";
import { serversForFile } from "./servers.ts";

// The Inbox API client (`@pigeonhole/inbox`, through its public exports only) against a real server over HTTP on
// 127.0.0.1. Every test works in a tenant (API key) of its own, so lists hold only what the test created.

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const REQUEST_ID = /^req_[0-9a-f]{16}$/;

const servers = serversForFile({ inboxRequestsPerMinute: 3, inboxSendsPerDay: 1 });

/** A client of a new tenant of `on` (the main server by default). */
async function newTenant(options: InboxClientOptions = {}, on: Server = servers.main): Promise<InboxClient> {
  return createInboxClient({ baseUrl: on.inbox.url, apiKey: await on.createApiKey("inbox"), ...options });
}

let names = 0;
/** An inbox username no other test uses: addresses are unique across tenants. */
const uniqueName = (name: string) => `${name}-${++names}-${Math.random().toString(36).slice(2, 8)}`;

async function newInbox(client: InboxClient, name: string): Promise<string> {
  return (await client.post("/v0/inboxes", { body: { username: uniqueName(name) } })).inbox_id;
}

describe("every operation, in both call styles", () => {
  it("creates, lists and reads inboxes", async () => {
    const inbox = await newTenant();
    const username = uniqueName("support");

    const support = await inbox.post("/v0/inboxes", {
      body: { username, display_name: "Support", client_id: `${username}-client` },
    });
    expectTypeOf(support).toEqualTypeOf<Inbox>();
    expect(support).toEqual({
      pod_id: expect.any(String),
      inbox_id: `${username}@pigeonhole.test`,
      email: `${username}@pigeonhole.test`,
      display_name: "Support",
      client_id: `${username}-client`,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      updated_at: support.created_at,
      metadata: {},
    });

    const again = await inbox.POST("/v0/inboxes", { body: { client_id: `${username}-client` } });
    expectConforms("inbox", "POST", "/v0/inboxes", again);
    expectTypeOf(again.data).toEqualTypeOf<Inbox | undefined>();
    expect(again.error).toBeUndefined();
    expect(again.data).toEqual(support);

    const generated = await inbox.post("/v0/inboxes", {});
    expect(generated.inbox_id).toMatch(/^inbox-[a-z0-9]{10}@pigeonhole\.test$/);

    const page = await inbox.get("/v0/inboxes", { params: { query: { limit: 10 } } });
    expectTypeOf(page).toEqualTypeOf<ListInboxesResponse>();
    expect(page).toEqual({ count: 2, limit: 10, next_page_token: null, inboxes: [generated, support] });

    const listed = await inbox.GET("/v0/inboxes", {});
    expectConforms("inbox", "GET", "/v0/inboxes", listed);
    expect(listed.data?.inboxes).toEqual([generated, support]);
    expect(listed.data?.limit).toBe(20);

    const read = await inbox.get("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: support.inbox_id } } });
    expectTypeOf(read).toEqualTypeOf<Inbox>();
    expect(read).toEqual(support);

    // Addresses are case-insensitive, and the result style with the method as an argument reaches the same record.
    const viaRequest = await inbox.request("get", "/v0/inboxes/{inbox_id}", {
      params: { path: { inbox_id: support.inbox_id.toUpperCase() } },
    });
    expectConforms("inbox", "GET", "/v0/inboxes/{inbox_id}", viaRequest);
    expect(viaRequest.data).toEqual(support);
  });

  it("sends a message, replies to it, and reads messages and threads on both sides", async () => {
    const inbox = await newTenant();
    const alice = await inbox.post("/v0/inboxes", { body: { username: uniqueName("alice"), display_name: "Alice" } });
    const bob = await newInbox(inbox, "bob");

    const sent = await inbox.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: alice.inbox_id } },
      body: {
        to: bob,
        cc: ["carol@example.com"],
        subject: "Lunch?",
        text: "Shall we have lunch on Friday?",
        html: "<p>Shall we have lunch on Friday?</p>",
        labels: ["social"],
        attachments: [{ filename: "menu.txt", content: Buffer.from("soup, bread").toString("base64") }],
      },
    });
    expectTypeOf(sent).toEqualTypeOf<SendMessageResponse>();
    expect(sent).toEqual({
      message_id: expect.stringMatching(/^<[0-9a-f-]+@pigeonhole\.test>$/),
      thread_id: expect.stringMatching(/^thd_/),
    });

    const received = await inbox.get("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: bob } } });
    expect(received.messages).toHaveLength(1);
    const [original] = received.messages;
    expect(original).toMatchObject({ message_id: sent.message_id, labels: ["received", "unread"], subject: "Lunch?" });

    // Bob answers in the result style; the reply joins the conversation in both inboxes.
    const reply = await inbox.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: bob } },
      body: {
        to: alice.inbox_id,
        subject: "Re: Lunch?",
        text: "Yes, at noon.",
        headers: { "In-Reply-To": sent.message_id, References: sent.message_id },
      },
    });
    expectConforms("inbox", "POST", "/v0/inboxes/{inbox_id}/messages", reply);
    expectTypeOf(reply.data).toEqualTypeOf<SendMessageResponse | undefined>();
    expect(reply.data?.thread_id).toBe(original?.thread_id);

    const messages = await inbox.get("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: alice.inbox_id } },
    });
    expectTypeOf(messages).toEqualTypeOf<ListMessagesResponse>();
    expectTypeOf(messages.messages).toEqualTypeOf<MessageItem[]>();
    expect(messages.messages.map((m) => [m.message_id, m.labels])).toEqual([
      [reply.data?.message_id, ["received", "unread"]],
      [sent.message_id, ["sent", "social"]],
    ]);
    expect(messages.messages.map((m) => m.thread_id)).toEqual([sent.thread_id, sent.thread_id]);

    // Message ids hold `<`, `@` and `>`; the client encodes them into the path.
    const message = await inbox.get("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: { inbox_id: alice.inbox_id, message_id: sent.message_id } },
    });
    expectTypeOf(message).toEqualTypeOf<Message>();
    expect(message).toMatchObject({
      inbox_id: alice.inbox_id,
      thread_id: sent.thread_id,
      message_id: sent.message_id,
      from: `Alice <${alice.inbox_id}>`,
      to: [bob],
      cc: ["carol@example.com"],
      subject: "Lunch?",
      text: "Shall we have lunch on Friday?",
      html: "<p>Shall we have lunch on Friday?</p>",
      attachments: [
        { attachment_id: expect.stringMatching(/^att_/), filename: "menu.txt", content_type: expect.any(String) },
      ],
    });
    expect(message.attachments[0]?.size).toBe("soup, bread".length);
    const messageResult = await inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: { inbox_id: bob, message_id: sent.message_id } },
    });
    expectConforms("inbox", "GET", "/v0/inboxes/{inbox_id}/messages/{message_id}", messageResult);
    expect(messageResult.data?.labels).toEqual(["received", "unread"]);

    const threads = await inbox.get("/v0/inboxes/{inbox_id}/threads", {
      params: { path: { inbox_id: alice.inbox_id } },
    });
    expectTypeOf(threads).toEqualTypeOf<ListThreadsResponse>();
    expect(threads.threads).toEqual([
      expect.objectContaining({ thread_id: sent.thread_id, message_count: 2, subject: "Lunch?" }),
    ]);
    const threadResult = await inbox.GET("/v0/inboxes/{inbox_id}/threads", { params: { path: { inbox_id: bob } } });
    expectConforms("inbox", "GET", "/v0/inboxes/{inbox_id}/threads", threadResult);
    expect(threadResult.data?.threads.map((t) => t.thread_id)).toEqual([original?.thread_id]);

    const thread = await inbox.get("/v0/inboxes/{inbox_id}/threads/{thread_id}", {
      params: { path: { inbox_id: alice.inbox_id, thread_id: sent.thread_id } },
    });
    expectTypeOf(thread).toEqualTypeOf<Thread>();
    expect(thread.messages.map((m) => m.message_id)).toEqual([sent.message_id, reply.data?.message_id]);
    const threadOfBob = await inbox.GET("/v0/inboxes/{inbox_id}/threads/{thread_id}", {
      params: { path: { inbox_id: bob, thread_id: original?.thread_id ?? "" } },
    });
    expectConforms("inbox", "GET", "/v0/inboxes/{inbox_id}/threads/{thread_id}", threadOfBob);
    expect(threadOfBob.data?.messages.map((m) => m.labels)).toEqual([["received", "unread"], ["sent"]]);
  });

  it("creates, lists, reads, replaces and deletes webhooks", async () => {
    const inbox = await newTenant();
    const created = await inbox.post("/v0/webhooks", {
      body: { url: "https://hooks.example.com/mail", client_id: "mail-hook", event_types: ["message.received"] },
    });
    expectTypeOf(created).toEqualTypeOf<Webhook>();
    expect(created).toEqual({
      webhook_id: expect.stringMatching(/^wh_/),
      url: "https://hooks.example.com/mail",
      client_id: "mail-hook",
      enabled: true,
      event_types: ["message.received"],
      inbox_ids: null,
      secret: expect.stringMatching(/^whsec_/),
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      updated_at: created.created_at,
    });
    const again = await inbox.POST("/v0/webhooks", {
      body: { url: "https://elsewhere.example.com", client_id: "mail-hook" },
    });
    expectConforms("inbox", "POST", "/v0/webhooks", again);
    expect(again.data).toEqual(created);

    const list = await inbox.get("/v0/webhooks", {});
    expectTypeOf(list).toEqualTypeOf<ListWebhooksResponse>();
    expect(list).toEqual({ count: 1, limit: 20, next_page_token: null, webhooks: [created] });
    const listResult = await inbox.GET("/v0/webhooks", { params: { query: { limit: 1 } } });
    expectConforms("inbox", "GET", "/v0/webhooks", listResult);

    const read = await inbox.GET("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: created.webhook_id } } });
    expectConforms("inbox", "GET", "/v0/webhooks/{webhook_id}", read);
    expect(read.data).toEqual(created);
    expect(
      await inbox.get("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: created.webhook_id } } }),
    ).toEqual(created);

    // PUT replaces the whole webhook: what the body leaves out returns to its default.
    const replaced = await inbox.put("/v0/webhooks/{webhook_id}", {
      params: { path: { webhook_id: created.webhook_id } },
      body: { url: "https://hooks.example.com/v2", enabled: false },
    });
    expectTypeOf(replaced).toEqualTypeOf<Webhook>();
    expect(replaced).toEqual({
      ...created,
      url: "https://hooks.example.com/v2",
      client_id: null,
      enabled: false,
      event_types: null,
      updated_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    const replacedAgain = await inbox.PUT("/v0/webhooks/{webhook_id}", {
      params: { path: { webhook_id: created.webhook_id } },
      body: { url: "https://hooks.example.com/v3", inbox_ids: ["Someone@Pigeonhole.test"] },
    });
    expectConforms("inbox", "PUT", "/v0/webhooks/{webhook_id}", replacedAgain);
    expect(replacedAgain.data).toMatchObject({ enabled: true, inbox_ids: ["someone@pigeonhole.test"] });

    const deleted = await inbox.delete("/v0/webhooks/{webhook_id}", {
      params: { path: { webhook_id: created.webhook_id } },
    });
    expect(deleted).toBeUndefined();
    const deletedAgain = await inbox.DELETE("/v0/webhooks/{webhook_id}", {
      params: { path: { webhook_id: created.webhook_id } },
    });
    expectConforms("inbox", "DELETE", "/v0/webhooks/{webhook_id}", deletedAgain);
    expect(deletedAgain.response.status).toBe(404);
    expect((await inbox.get("/v0/webhooks", {})).webhooks).toEqual([]);
  });
});

describe("typed errors from real responses", () => {
  it("throws AuthenticationError for a key the server does not know", async () => {
    const stranger = createInboxClient({ baseUrl: servers.main.inbox.url, apiKey: "not-a-real-key" });
    const error = await stranger.get("/v0/inboxes", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    if (!(error instanceof AuthenticationError)) {
      return;
    }
    expect(error.status).toBe(401);
    expect(error.code).toBe("INVALID_API_KEY");
    expect(error.body?.error).toMatchObject({ type: "authentication_error", details: { field: null } });

    const result = await stranger.GET("/v0/inboxes", {});
    expectConforms("inbox", "GET", "/v0/inboxes", result);
    expect(result.error?.error.details.code).toBe("INVALID_API_KEY");
  });

  it("throws NotFoundError with the service's envelope for another tenant's inbox, message and webhook", async () => {
    const owner = await newTenant();
    const stranger = await newTenant();
    const inboxId = await newInbox(owner, "private");
    const sent = await owner.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: inboxId } },
      body: { to: "someone@example.com", text: "mine" },
    });

    const error = await stranger
      .get("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: inboxId } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    if (!(error instanceof NotFoundError)) {
      return;
    }
    expect(error.status).toBe(404);
    expect(error.code).toBe("NOT_FOUND");
    expect(error.body).toEqual({
      error: {
        type: "not_found_error",
        message: `Inbox '${inboxId}' was not found.`,
        details: { field: "inbox_id", code: "NOT_FOUND" },
      },
    });

    await expect(
      owner.get("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: inboxId, message_id: sent.message_id.replace("<", "<x") } },
      }),
    ).rejects.toMatchObject({ name: "NotFoundError", body: { error: { details: { field: "message_id" } } } });
    const hook = await owner.post("/v0/webhooks", { body: { url: "https://hooks.example.com" } });
    const result = await stranger.GET("/v0/webhooks/{webhook_id}", {
      params: { path: { webhook_id: hook.webhook_id } },
    });
    expectConforms("inbox", "GET", "/v0/webhooks/{webhook_id}", result);
    expect(result.error?.error).toMatchObject({ type: "not_found_error", details: { field: "webhook_id" } });
  });

  it("throws BadRequestError naming the field and code of a validation failure", async () => {
    const inbox = await newTenant();
    const inboxId = await newInbox(inbox, "validation");

    const badAddress = await inbox
      .post("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: inboxId } }, body: { to: "ada@" } })
      .catch((e: unknown) => e);
    expect(badAddress).toBeInstanceOf(BadRequestError);
    if (!(badAddress instanceof BadRequestError)) {
      return;
    }
    expect(badAddress.status).toBe(400);
    expect(badAddress.code).toBe("INVALID_EMAIL");
    expect(badAddress.body?.error).toMatchObject({
      type: "validation_error",
      details: { field: "to", code: "INVALID_EMAIL" },
    });

    const tooMany = await inbox.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: inboxId } },
      body: { to: "a@example.com", bcc: Array.from({ length: 50 }, (_, i) => `b${i}@example.com`) },
    });
    expectConforms("inbox", "POST", "/v0/inboxes/{inbox_id}/messages", tooMany);
    expect(tooMany.error?.error.details).toEqual({ field: "bcc", code: "TOO_MANY_RECIPIENTS" });

    await expect(inbox.get("/v0/inboxes", { params: { query: { limit: 500 } } })).rejects.toMatchObject({
      name: "BadRequestError",
      body: { error: { details: { field: "limit" } } },
    });
    await expect(inbox.get("/v0/inboxes", { params: { query: { page_token: "made-up" } } })).rejects.toMatchObject({
      name: "BadRequestError",
      code: "INVALID_PAGE_TOKEN",
      body: { error: { details: { field: "page_token", code: "INVALID_PAGE_TOKEN" } } },
    });
  });

  it("throws ConflictError for a taken address and for an idempotency key reused with another body", async () => {
    const first = await newTenant();
    const second = await newTenant();
    const username = uniqueName("taken");
    await first.post("/v0/inboxes", { body: { username } });

    const { fetch, requests: exchanges } = fakeFetch([], forward);
    const taken = await second
      .withOptions({ fetch })
      .post("/v0/inboxes", { body: { username } })
      .catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(ConflictError);
    if (!(taken instanceof ConflictError)) {
      return;
    }
    expect(taken.status).toBe(409);
    expect(taken.code).toBe("ADDRESS_TAKEN");
    expect(taken.body?.error).toMatchObject({ type: "conflict_error", details: { field: "username" } });
    // The server says a retry cannot help (X-Should-Retry: false), so the client asks once and gives up.
    expect(exchanges.map((e) => e.response?.status)).toEqual([409]);
    expect(taken.headers.get("x-should-retry")).toBe("false");
    expect(taken.requestId).toBe(exchanges[0]?.response?.headers.get("x-request-id"));

    const inboxId = await newInbox(first, "idempotent");
    const send = (text: string) =>
      first.post("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: inboxId } },
        body: { to: "ada@example.com", text },
        idempotencyKey: "order-42-shipped",
        maxRetries: 0,
      });
    const original = await send("Your order has shipped.");
    expect(await send("Your order has shipped.")).toEqual(original);
    await expect(send("Something else entirely.")).rejects.toMatchObject({
      name: "ConflictError",
      status: 409,
      code: "IDEMPOTENCY_KEY_REUSED",
    });
  });

  it("carries the server's request id on every thrown error", async () => {
    const { fetch, requests: exchanges } = fakeFetch([], forward);
    const inbox = await newTenant({ fetch });
    const error = await inbox
      .get("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: "nobody@pigeonhole.test" } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    if (!(error instanceof NotFoundError)) {
      return;
    }
    const answered = exchanges.at(-1)?.response?.headers.get("x-request-id");
    expect(answered).toMatch(REQUEST_ID);
    expect(error.requestId).toBe(answered);
    expect(error.message).toBe(
      `404 NOT_FOUND: Inbox 'nobody@pigeonhole.test' was not found. (field: inbox_id) (request ${answered})`,
    );
    expect(error.headers.get("x-request-id")).toBe(answered);
  });
});

describe("pagination across real pages", () => {
  it("walks token pages while new inboxes are created, without repeats or gaps", async () => {
    const { fetch, requests: exchanges } = fakeFetch([], forward);
    const inbox = await newTenant({ fetch });
    for (let i = 0; i < 7; i++) {
      await newInbox(inbox, `page-${i}`);
    }
    const before = (await inbox.get("/v0/inboxes", { params: { query: { limit: 100 } } })).inboxes;
    expect(before).toHaveLength(7);

    const walked: Inbox[] = [];
    const listCallsBefore = exchanges.filter((e) => e.method === "GET").length;
    for await (const item of inbox.paginate("/v0/inboxes", { params: { query: { limit: 3 } } })) {
      expectTypeOf(item).toEqualTypeOf<Inbox>();
      walked.push(item);
      // Newer inboxes land at the head of the list, before the walk's position: a token walk never sees them.
      await newInbox(inbox, `arrived-${walked.length}`);
    }
    expect(walked).toEqual(before);
    expect(exchanges.filter((e) => e.method === "GET").length - listCallsBefore).toBe(3);
    expect((await inbox.paginate("/v0/inboxes").toArray()).length).toBe(14);
  });

  it("walks the messages of an inbox page by page while messages keep arriving", async () => {
    const inbox = await newTenant();
    const inboxId = await newInbox(inbox, "busy");
    const sendTo = (text: string) =>
      inbox.post("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: inboxId } },
        body: { to: inboxId, text },
      });
    for (let i = 0; i < 5; i++) {
      await sendTo(`before ${i}`);
    }
    const paginator = inbox.paginate("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: inboxId }, query: { limit: 2 } },
    });
    const first = await paginator.firstPage();
    expectTypeOf(first).toEqualTypeOf<ListMessagesResponse>();
    expect(first.messages.map((m) => m.preview)).toEqual(["before 4", "before 3"]);

    const pageSizes: number[] = [];
    const seen: string[] = [];
    for await (const page of paginator.pages()) {
      pageSizes.push(page.count);
      seen.push(...page.messages.map((m) => m.preview ?? ""));
      await sendTo(`during ${pageSizes.length}`);
    }
    expect(pageSizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(["before 4", "before 3", "before 2", "before 1", "before 0"]);

    // A walk started from a page token resumes exactly where that page ended.
    const resumed = await inbox
      .paginate("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: inboxId }, query: { limit: 2, page_token: first.next_page_token ?? "" } },
      })
      .toArray(3);
    expect(resumed.map((m) => m.preview)).toEqual(["before 2", "before 1", "before 0"]);
  });
});

describe("retries", () => {
  it("retries a send whose answer was lost with the same Idempotency-Key, and the server stores one message", async () => {
    const apiKey = await servers.main.createApiKey("inbox");
    const setup = createInboxClient({ baseUrl: servers.main.inbox.url, apiKey });
    const from = await newInbox(setup, "sender");
    const to = await newInbox(setup, "recipient");
    // The server stores the send, then closes the connection instead of answering.
    const fault = await servers.control.faults.add({
      target: "request",
      match: { method: "POST", path: "/v0/inboxes/*/messages", api_key: apiKey },
      action: { type: "drop", when: "after" },
    });
    // Recorded to see the key each attempt carried: only what the client sent shows it.
    const { fetch, requests: exchanges } = fakeFetch([], forward);

    const sent = await setup.withOptions({ fetch }).post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: from } },
      body: { to, subject: "Exactly once", text: "This message must arrive once." },
    });

    // The first attempt got no answer; the retry with the same key got the answer of the stored send.
    expect(exchanges.map((e) => [e.method, e.response?.status])).toEqual([
      ["POST", undefined],
      ["POST", 200],
    ]);
    const [firstAttempt, retry] = exchanges;
    expect(firstAttempt?.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
    expect(retry?.headers.get("idempotency-key")).toBe(firstAttempt?.headers.get("idempotency-key"));
    expect(await servers.control.faults.get(fault.fault_id)).toMatchObject({ hits: 1, remaining: 0 });

    const sentCopies = await setup.get("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: from } } });
    expect(sentCopies.messages.map((m) => [m.message_id, m.thread_id])).toEqual([[sent.message_id, sent.thread_id]]);
    const receivedCopies = await setup.get("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: to } } });
    expect(receivedCopies.messages.map((m) => m.message_id)).toEqual([sent.message_id]);
  });

  it("retries 503s of its own key until the server answers, while other keys are answered as usual", async () => {
    const apiKey = await servers.main.createApiKey("inbox");
    const other = await newTenant();
    const fault = await servers.control.faults.add({
      target: "request",
      match: { method: "GET", path: "/v0/inboxes", api_key: apiKey },
      times: 2,
      // A short wait, so that the two retries take a tenth of a second rather than the backoff's second.
      action: { type: "respond", status: 503, headers: { "retry-after-ms": "50" } },
    });
    expect((await other.get("/v0/inboxes", {})).inboxes).toEqual([]);
    expect(await servers.control.faults.get(fault.fault_id)).toMatchObject({ hits: 0, remaining: 2 });

    const statuses: number[] = [];
    const inbox = createInboxClient({
      baseUrl: servers.main.inbox.url,
      apiKey,
      onResponse: ({ response }) => statuses.push(response.status),
    });
    expect((await inbox.get("/v0/inboxes", {})).inboxes).toEqual([]);
    expect(statuses).toEqual([503, 503, 200]);

    // Without retries left, the 503 is thrown with the service's envelope.
    await servers.control.faults.add({
      target: "request",
      match: { path: "/v0/inboxes", api_key: apiKey },
      action: { type: "respond", status: 503 },
    });
    const error = await inbox.get("/v0/inboxes", { maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, body: { error: { type: expect.any(String) } } });
  });

  it("throws RateLimitError with retryAfter once the per-minute budget is spent, until the window resets", async () => {
    const inbox = await newTenant({ maxRetries: 0 }, servers.limited);
    await freezeBeforeWindowEnd(servers.limitedControl, MINUTE_MS, 2_000);
    for (let i = 0; i < 3; i++) {
      await inbox.get("/v0/inboxes", {});
    }
    const error = await inbox.get("/v0/inboxes", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    if (!(error instanceof RateLimitError)) {
      return;
    }
    expect(error.status).toBe(429);
    expect(error.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(error.retryAfter).toBe(2);
    expect(error.body?.error.type).toBe("rate_limit_error");
    expect(error.headers.get("x-ratelimit-remaining")).toBe("0");

    await servers.limitedControl.clock.advance(1_999);
    await expect(inbox.get("/v0/inboxes", {})).rejects.toMatchObject({ status: 429, retryAfter: 1 });
    await servers.limitedControl.clock.advance(1);
    expect((await inbox.get("/v0/inboxes", {})).inboxes).toEqual([]);
  });

  it("waits the Retry-After the server asks for, then succeeds", async () => {
    const apiKey = await servers.main.createApiKey("inbox");
    const fault = await servers.control.faults.add({
      target: "request",
      match: { method: "GET", path: "/v0/inboxes", api_key: apiKey },
      action: { type: "respond", status: 429, headers: { "Retry-After": "1" } },
    });
    // Recorded for when each attempt was sent.
    const { fetch, requests: exchanges } = fakeFetch([], forward);
    const inbox = createInboxClient({ baseUrl: servers.main.inbox.url, apiKey, fetch });

    const page = await inbox.get("/v0/inboxes", {});
    expect(page.inboxes).toEqual([]);
    const [limitedAttempt, retry] = exchanges;
    expect([limitedAttempt?.response?.status, retry?.response?.status]).toEqual([429, 200]);
    expect(limitedAttempt?.response?.headers.get("retry-after")).toBe("1");
    // The timer may fire a millisecond early; the client did not retry before the second it was asked to wait.
    expect((retry?.sentAt ?? 0) - (limitedAttempt?.sentAt ?? 0)).toBeGreaterThanOrEqual(995);
    expect(await servers.control.faults.get(fault.fault_id)).toMatchObject({ hits: 1, remaining: 0 });
  });

  it("throws RateLimitError with SEND_LIMIT_EXCEEDED at once, without retrying, until the next UTC day", async () => {
    // Recorded to count the attempts the client made.
    const { fetch, requests: exchanges } = fakeFetch([], forward);
    const inbox = await newTenant({ fetch }, servers.limited);
    const inboxId = await newInbox(inbox, "daily");
    const send = () =>
      inbox.post("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: inboxId } },
        body: { to: "ada@example.com", text: "hello" },
      });
    // Two hours before midnight UTC: far longer than a client waits out.
    await freezeBeforeWindowEnd(servers.limitedControl, DAY_MS, 2 * HOUR_MS);
    await send();
    const error = await send().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    if (!(error instanceof RateLimitError)) {
      return;
    }
    expect(error.code).toBe("SEND_LIMIT_EXCEEDED");
    // A wait of hours is not waited out nor retried early: the second send was asked once.
    expect(exchanges.filter((e) => e.response?.status === 429)).toHaveLength(1);
    // The wait runs to midnight UTC.
    expect(error.retryAfter).toBe(7_200);

    await servers.limitedControl.clock.advance(2 * HOUR_MS);
    expect((await send()).message_id).toMatch(/^<.+>$/);
  });
});

describe("webhooks", () => {
  it("verifies a real delivery from the server with verifyWebhook, and rejects a tampered body", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const inbox = await newTenant();
      const from = await newInbox(inbox, "notifier");
      const to = await newInbox(inbox, "watched");
      const hook = await inbox.post("/v0/webhooks", {
        body: { url: receiver.url, event_types: ["message.received"], inbox_ids: [to] },
      });
      const sent = await inbox.post("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: { to, subject: "Deploy finished", text: "Version 42 is live." },
      });

      const [delivery] = await receiver.waitFor(1);
      if (!delivery) {
        throw new Error("No delivery arrived.");
      }
      const event = await verifyWebhook(delivery.body, delivery.headers, hook.secret);
      expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
      if (event.event_type !== "message.received") {
        throw new Error(`Expected message.received, got ${event.event_type}.`);
      }
      expect(event.message).toMatchObject({ inbox_id: to, message_id: sent.message_id, subject: "Deploy finished" });
      expect(event.thread.inbox_id).toBe(to);
      expect(delivery.headers["webhook-id"]).toBe(event.event_id);

      // The svix-* header set alone verifies as well.
      const svixOnly = Object.fromEntries(
        Object.entries(delivery.headers).filter(([name]) => name.startsWith("svix-")),
      );
      expect((await verifyWebhook(delivery.body, svixOnly, hook.secret)).event_id).toBe(event.event_id);

      const tampered = delivery.body.replace("Version 42 is live.", "Version 666 is live.");
      expect(tampered).not.toBe(delivery.body);
      const rejection = await verifyWebhook(tampered, delivery.headers, hook.secret).catch((e: unknown) => e);
      expect(rejection).toBeInstanceOf(WebhookVerificationError);
      expect(rejection).toMatchObject({ reason: "invalid_signature" });

      const otherHook = await inbox.post("/v0/webhooks", { body: { url: "https://hooks.example.com" } });
      await expect(verifyWebhook(delivery.body, delivery.headers, otherHook.secret)).rejects.toMatchObject({
        reason: "invalid_signature",
      });
    } finally {
      await receiver.close();
    }
  });
});
