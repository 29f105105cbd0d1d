import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSpecAjv, detachSchema } from "./spec/ajv.ts";
import type { ServiceSpecName } from "./spec/spec-bundle.ts";
import { HTTP_METHODS, loadSpecBundle } from "./spec/spec-bundle.ts";
import type { TestSandbox } from "./testing/test-sandbox.ts";
import { expectData, forumClient, inboxClient, responseValidator, startTestSandbox } from "./testing/test-sandbox.ts";

// Thousands of generated requests, valid and invalid, sent by one tenant that knows the ids of another tenant's
// data. No answer may be a 5xx; every error must be in the service's envelope (and, for a documented operation,
// documented); nothing of the other tenant's data may appear in any answer.

const RUNS = 1_500;
const TIME_LIMIT_MS = 60_000;
const SECRET = "zq-private-marker";

let t: TestSandbox;
let victim: {
  inboxId: string;
  messageId: string;
  threadId: string;
  webhookId: string;
  postId: string;
  commentId: string;
  inboxKey: string;
  forumKey: string;
};
let attacker: { inboxKey: string; forumKey: string; inboxId: string; postId: string };

beforeAll(async () => {
  t = await startTestSandbox();
  const inboxKey = await t.sandbox.createApiKey("inbox");
  const forumKey = await t.sandbox.createApiKey("forum", { name: "victim" });
  const vInbox = inboxClient(t.sandbox.inbox.url, inboxKey);
  const vForum = forumClient(t.sandbox.forum.url, forumKey);
  const inbox = expectData(await vInbox.POST("/v0/inboxes", { body: { username: "victim", display_name: SECRET } }));
  const sent = expectData(
    await vInbox.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: inbox.inbox_id } },
      body: { to: "someone@example.com", subject: SECRET, text: SECRET },
    }),
  );
  const webhook = expectData(await vInbox.POST("/v0/webhooks", { body: { url: `https://example.com/${SECRET}` } }));
  const post = expectData(await vForum.POST("/api/v1/posts", { body: { title: SECRET, content: SECRET } })).post;
  const comment = expectData(
    await vForum.POST("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: post.id } },
      body: { content: SECRET },
    }),
  ).comment;
  victim = {
    inboxId: inbox.inbox_id,
    messageId: sent.message_id,
    threadId: sent.thread_id,
    webhookId: webhook.webhook_id,
    postId: post.id,
    commentId: comment.id,
    inboxKey,
    forumKey,
  };
  const aInbox = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "attacker" } }));
  const aPost = expectData(await t.forum.POST("/api/v1/posts", { body: { title: "mine", content: "mine" } })).post;
  attacker = {
    inboxKey: t.sandbox.inbox.apiKey,
    forumKey: t.sandbox.forum.apiKey,
    inboxId: aInbox.inbox_id,
    postId: aPost.id,
  };
});
afterAll(() => t.sandbox.close());

const weirdSegment = fc.constantFrom("%", "%ZZ", "%E0%A4%A", "..", ".", "%2F", "%00", "a%40b", "%3C%3E");

const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.emailAddress(),
  fc.uuid(),
  fc.constantFrom("up", "down", "hot", "new", "message.received", "https://example.com/x", "ada@", ""),
  fc.array(fc.oneof(fc.string(), fc.emailAddress()), { maxLength: 60 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);

const FIELDS = [
  "to",
  "cc",
  "bcc",
  "reply_to",
  "subject",
  "text",
  "html",
  "labels",
  "attachments",
  "headers",
  "username",
  "domain",
  "display_name",
  "client_id",
  "url",
  "enabled",
  "event_types",
  "inbox_ids",
  "title",
  "content",
  "community_id",
  "parent_id",
  "direction",
];

const body = fc.oneof(
  fc.constant(undefined),
  fc.dictionary(fc.constantFrom(...FIELDS), jsonValue, { maxKeys: 6 }).map((value) => JSON.stringify(value)),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string(),
  fc.constantFrom("{", '{"to": ', "[]", "null", '"text"', "{}"),
);

interface Operation {
  method: string;
  specPath: string;
}

function operationsOf(service: ServiceSpecName): Operation[] {
  const document = loadSpecBundle(service);
  return Object.entries(document.paths).flatMap(([specPath, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({ method: method.toUpperCase(), specPath })),
  );
}

function errorEnvelope(service: ServiceSpecName) {
  const document = loadSpecBundle(service);
  const ajv = createSpecAjv(document, `${service}-envelope`);
  return ajv.compile(detachSchema({ $ref: "#/components/schemas/ErrorResponse" }, `${service}-envelope`));
}

const envelopes = new Map<ServiceSpecName, ReturnType<typeof errorEnvelope>>();
const envelopeOf = (service: ServiceSpecName) => {
  let envelope = envelopes.get(service);
  if (!envelope) {
    envelope = errorEnvelope(service);
    envelopes.set(service, envelope);
  }
  return envelope;
};

async function check(service: ServiceSpecName, request: Request, specPath: string, documented: boolean) {
  const response = await fetch(request);
  const text = await response.text();
  expect(response.status, `${request.method} ${request.url}`).toBeLessThan(500);
  expect(text).not.toContain(SECRET);
  const parsed = text === "" ? undefined : (JSON.parse(text) as unknown);
  if (documented) {
    const violations = responseValidator(service)({
      method: request.method,
      specPath,
      status: response.status,
      headers: response.headers,
      body: parsed,
    });
    expect(violations, `${request.method} ${request.url}`).toEqual([]);
  } else if (response.status >= 400) {
    expect(envelopeOf(service)(parsed), text).toBe(true);
  }
  return response.status;
}

function fuzz(service: ServiceSpecName) {
  const operations = operationsOf(service);
  const base = () => (service === "inbox" ? t.sandbox.inbox.url : t.sandbox.forum.url);
  const ownIds = () =>
    service === "inbox"
      ? [attacker.inboxId, "<missing@example.com>"]
      : [attacker.postId, "00000000-0000-4000-8000-000000000001"];
  const victimIds = () =>
    service === "inbox"
      ? [victim.inboxId, victim.messageId, victim.threadId, victim.webhookId]
      : [victim.postId, victim.commentId];

  const segment = fc.oneof(
    fc
      .constantFrom(0, 1, 2, 3)
      .map((i) => ({ raw: false, value: () => victimIds()[i % victimIds().length] ?? "", victim: true })),
    fc.constantFrom(0, 1).map((i) => ({ raw: false, value: () => ownIds()[i] ?? "", victim: false })),
    fc
      .oneof(fc.string({ minLength: 1 }), fc.uuid(), fc.emailAddress())
      .map((s) => ({ raw: false, value: () => s, victim: false })),
    weirdSegment.map((s) => ({ raw: true, value: () => s, victim: false })),
  );
  const query = fc.dictionary(
    fc.constantFrom("limit", "page_token", "offset", "sort", "other"),
    fc.oneof(fc.string(), fc.integer({ min: -5, max: 500 }).map(String), fc.constantFrom("hot", "new", "top", "1.5")),
    { maxKeys: 3 },
  );
  const request = fc.record({
    operation: fc.constantFrom(...operations),
    methodOverride: fc.option(fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"), { freq: 5 }),
    segments: fc.array(segment, { minLength: 3, maxLength: 3 }),
    query,
    body,
    contentType: fc.constantFrom("application/json", "application/json", "text/plain", undefined),
    idempotencyKey: fc.option(fc.oneof(fc.string(), fc.uuid()), { freq: 3 }),
    authorised: fc.boolean().map((b) => b || Math.random() < 0.9),
  });

  return fc.asyncProperty(request, async (r) => {
    let segmentIndex = 0;
    let usesVictimId = false;
    const path = r.operation.specPath.replace(/\{[^}]+\}/g, () => {
      const chosen = r.segments[segmentIndex++ % r.segments.length];
      usesVictimId ||= chosen?.victim ?? false;
      const value = chosen?.value() ?? "";
      return chosen?.raw ? value : encodeURIComponent(value);
    });
    const method = r.methodOverride ?? r.operation.method;
    const url = new URL(`${base()}${path}`);
    for (const [name, value] of Object.entries(r.query)) {
      url.searchParams.set(name, value);
    }
    const headers = new Headers();
    if (r.authorised) {
      headers.set("Authorization", `Bearer ${service === "inbox" ? attacker.inboxKey : attacker.forumKey}`);
    }
    if (r.contentType) {
      headers.set("Content-Type", r.contentType);
    }
    if (r.idempotencyKey !== null && /^[\t\x20-\x7e]*$/.test(r.idempotencyKey)) {
      headers.set("Idempotency-Key", r.idempotencyKey);
    }
    const hasBody = method !== "GET" && r.body !== undefined;
    const status = await check(
      service,
      new Request(url, { method, headers, body: hasBody ? r.body : undefined }),
      r.operation.specPath,
      method === r.operation.method && !path.includes("%2F") && !/\/\.\.?(\/|$)/.test(path),
    );
    if (usesVictimId && r.authorised) {
      // Another tenant's id is never found; only its absence (404) or the request's own faults can be answered.
      expect([400, 404, 413]).toContain(status);
    }
  });
}

describe("fuzzing", () => {
  it("never answers 5xx, leaks nothing and keeps every inbox error in the envelope", async () => {
    envelopeOf("inbox");
    await fc.assert(fuzz("inbox"), {
      numRuns: RUNS,
      interruptAfterTimeLimit: TIME_LIMIT_MS,
      markInterruptAsFailure: false,
    });
  }, 120_000);

  it("never answers 5xx, leaks nothing and keeps every forum error in the envelope", async () => {
    envelopeOf("forum");
    await fc.assert(fuzz("forum"), {
      numRuns: RUNS,
      interruptAfterTimeLimit: TIME_LIMIT_MS,
      markInterruptAsFailure: false,
    });
  }, 120_000);

  it("still holds the other tenant's data intact afterwards", async () => {
    const vInbox = inboxClient(t.sandbox.inbox.url, victim.inboxKey);
    const vForum = forumClient(t.sandbox.forum.url, victim.forumKey);
    const message = expectData(
      await vInbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: victim.inboxId, message_id: victim.messageId } },
      }),
    );
    expect(message.subject).toBe(SECRET);
    expectData(await vInbox.GET("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: victim.webhookId } } }));
    const post = expectData(
      await vForum.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: victim.postId } } }),
    ).post;
    expect(post).toMatchObject({ title: SECRET, comment_count: 1, upvotes: 0, downvotes: 0 });
  });
});
