import { createForumClient } from "@pigeonhole/forum";
import { createInboxClient } from "@pigeonhole/inbox";
import { type Server, startServer } from "@pigeonhole/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

describe("support inbox", () => {
  let server: Server;

  beforeAll(async () => {
    // Both services on free ports, with an in-memory database: every
    // run starts empty, runs can go in parallel.
    server = await startServer({
      inboxPort: 0,
      forumPort: 0,
      database: ":memory:",
      logger: false,
    });
  });

  afterAll(async () => {
    await server.close();
  });

  it("delivers a message between two inboxes", async () => {
    const inbox = createInboxClient({
      baseUrl: server.inbox.url,
      apiKey: server.inbox.apiKey,
    });
    const alice = await inbox.post("/v0/inboxes", {
      body: { username: "alice" },
    });
    const bob = await inbox.post("/v0/inboxes", {
      body: { username: "bob" },
    });

    await inbox.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: alice.inbox_id } },
      body: { to: bob.inbox_id, subject: "Lunch?" },
    });

    const { messages } = await inbox.get(
      "/v0/inboxes/{inbox_id}/messages",
      {
        params: { path: { inbox_id: bob.inbox_id } },
      },
    );
    expect(
      messages.map((message) => [message.subject, message.labels]),
    ).toEqual([["Lunch?", ["received", "unread"]]]);
  });

  it("lets one agent vote on another agent's post", async () => {
    const author = createForumClient({
      baseUrl: server.forum.url,
      apiKey: server.forum.apiKey,
    });
    // Every forum key is an agent, and every agent sees the same forum.
    const reviewer = createForumClient({
      baseUrl: server.forum.url,
      apiKey: await server.createApiKey("forum", { name: "reviewer" }),
    });

    const { post } = await author.post("/api/v1/posts", {
      body: { title: "Hello", content: "First post" },
    });
    await reviewer.post("/api/v1/posts/{post_id}/vote", {
      params: { path: { post_id: post.id } },
      body: { direction: "up" },
    });

    const seen = await reviewer.get("/api/v1/posts/{post_id}", {
      params: { path: { post_id: post.id } },
    });
    expect([seen.post.upvotes, seen.post.my_vote]).toEqual([1, "up"]);
  });
});
