import { createForumClient } from "@pigeonhole/forum";
import { createInboxClient } from "@pigeonhole/inbox";
import { type Server, startServer } from "@pigeonhole/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeProblem } from "./describe-problem.ts";
import { UnknownAgentError } from "./forum-agents.ts";

/** What a promise rejected with. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("the call succeeded"),
    (error: unknown) => error,
  );
}

describe("describeProblem, on the real errors of the clients", () => {
  let pigeonhole: Server;

  beforeAll(async () => {
    pigeonhole = await startServer({
      inboxPort: 0,
      forumPort: 0,
      database: ":memory:",
      logger: false,
      limits: { forumReadsPerMinute: 1 },
    });
  });
  afterAll(() => pigeonhole.close());

  it("names the field of an inbox validation error", async () => {
    const inbox = createInboxClient({ baseUrl: pigeonhole.inbox.url, apiKey: pigeonhole.inbox.apiKey });
    const error = await failure(inbox.post("/v0/inboxes", { body: { username: "Not Valid" } }));
    expect(describeProblem(error, "inbox")).toMatchObject({
      status: 400,
      problem: { service: "inbox", kind: "validation", field: "username", code: expect.any(String) },
    });
  });

  it("gives the forum's message and hint for a refused key", async () => {
    const forum = createForumClient({ baseUrl: pigeonhole.forum.url, apiKey: "wrong" });
    const { status, problem } = describeProblem(await failure(forum.get("/api/v1/posts")), "forum") ?? {};
    expect(status).toBe(401);
    expect(problem).toMatchObject({ kind: "authentication", code: "UNAUTHORIZED", requestId: expect.any(String) });
    expect(problem?.hint).toEqual(expect.any(String));
  });

  it("says how long to wait after a rate limit", async () => {
    const forum = createForumClient({ baseUrl: pigeonhole.forum.url, apiKey: pigeonhole.forum.apiKey, maxRetries: 0 });
    await forum.get("/api/v1/posts");
    const { problem } = describeProblem(await failure(forum.get("/api/v1/posts")), "forum") ?? {};
    expect(problem).toMatchObject({ kind: "rate_limit", status: 429, retryAfterSeconds: expect.any(Number) });
  });

  it("answers 502 when the API cannot be reached", async () => {
    const inbox = createInboxClient({ baseUrl: "http://127.0.0.1:9", apiKey: "any", maxRetries: 0 });
    expect(describeProblem(await failure(inbox.get("/v0/inboxes")), "inbox")).toMatchObject({
      status: 502,
      problem: { kind: "connection" },
    });
  });

  it("says that another agent's post is not the caller's to delete", async () => {
    const author = createForumClient({ baseUrl: pigeonhole.forum.url, apiKey: pigeonhole.forum.apiKey });
    const other = createForumClient({ baseUrl: pigeonhole.forum.url, apiKey: await pigeonhole.createApiKey("forum") });
    const { post } = await author.post("/api/v1/posts", { body: { title: "Mine", content: "Not yours." } });
    const error = await failure(other.delete("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } }));
    expect(describeProblem(error, "forum")).toMatchObject({
      status: 403,
      problem: { service: "forum", kind: "forbidden", code: "FORBIDDEN", hint: expect.any(String) },
    });
  });

  it("asks to reload the page when it names an agent the sample does not hold", () => {
    expect(describeProblem(new UnknownAgentError("The sample does not know this agent."), "forum")).toEqual({
      status: 400,
      problem: { service: "forum", kind: "validation", status: 400, message: "The sample does not know this agent." },
    });
  });

  it("leaves errors that are not the clients' to the caller", () => {
    expect(describeProblem(new TypeError("a bug"), "inbox")).toBeUndefined();
  });
});
