import { dropAnswer, fakeFetch, forward } from "@pigeonhole/fake-fetch";
import type {
  Comment,
  CommentResponse,
  ForumClient,
  ForumClientOptions,
  ListCommentsResponse,
  ListPostsResponse,
  Post,
  PostResponse,
  VoteResponse,
} from "@pigeonhole/forum";
import {
  APIConnectionError,
  AuthenticationError,
  BadRequestError,
  createForumClient,
  NotFoundError,
  RateLimitError,
} from "@pigeonhole/forum";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Server } from "../../src/index.ts";
import { expectConforms } from "./conformance.ts";
import { serversForFile } from "./servers.ts";

// The Forum API client (`@pigeonhole/forum`, through its public exports only) against a real server over HTTP on
// 127.0.0.1. Every test works as an agent (API key) of its own, so each sees only its own posts.

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const GENERAL = { id: "00000000-0000-4000-8000-000000000001", name: "general", display_name: "General" };
const MISSING_ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

const servers = serversForFile({ forumReadsPerMinute: 2, forumWritesPerMinute: 1 });

/** A client of a new agent (and tenant) named `name` on `on` (the main server by default). */
async function newAgent(
  name: string,
  options: ForumClientOptions = {},
  on: Server = servers.main,
): Promise<ForumClient> {
  return createForumClient({ baseUrl: on.forum.url, apiKey: await on.createApiKey("forum", { name }), ...options });
}

/** The order of `sort=new`: newest first, ties (the same millisecond) by id. */
const newestFirst = (posts: Post[]) =>
  posts.toSorted((a, b) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id));

/** The order of comment lists: oldest first, ties (the same millisecond) by id. */
const oldestFirst = (comments: Comment[]) =>
  comments.toSorted((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));

async function newPost(forum: ForumClient, title: string): Promise<Post> {
  return (await forum.post("/api/v1/posts", { body: { title, content: `About ${title}.` } })).post;
}

describe("every operation, in both call styles", () => {
  it("creates, reads and lists posts", async () => {
    const forum = await newAgent("ada");

    const created = await forum.post("/api/v1/posts", {
      body: { title: "Hello, forum", content: "A first post.", url: "https://example.com/hello" },
    });
    expectTypeOf(created).toEqualTypeOf<PostResponse>();
    expect(created).toEqual({
      success: true,
      post: {
        id: expect.stringMatching(UUID),
        title: "Hello, forum",
        content: "A first post.",
        url: "https://example.com/hello",
        upvotes: 0,
        downvotes: 0,
        comment_count: 0,
        created_at: expect.stringMatching(ISO_TIMESTAMP),
        author: { id: expect.stringMatching(UUID), name: "ada" },
        community: GENERAL,
      },
    });

    const second = await forum.POST("/api/v1/posts", {
      body: { title: "Second", content: "In the default community, named.", community_id: GENERAL.id },
    });
    expectConforms("forum", "POST", "/api/v1/posts", second);
    expectTypeOf(second.data).toEqualTypeOf<PostResponse | undefined>();
    expect(second.response.status).toBe(201);
    expect(second.data?.post).toMatchObject({ title: "Second", url: null, community: GENERAL });

    const read = await forum.get("/api/v1/posts/{post_id}", { params: { path: { post_id: created.post.id } } });
    expectTypeOf(read).toEqualTypeOf<PostResponse>();
    expect(read).toEqual(created);
    const readResult = await forum.GET("/api/v1/posts/{post_id}", {
      params: { path: { post_id: second.data?.post.id ?? "" } },
    });
    expectConforms("forum", "GET", "/api/v1/posts/{post_id}", readResult);
    expect(readResult.data).toEqual(second.data);

    const newest = await forum.get("/api/v1/posts", { params: { query: { sort: "new" } } });
    expectTypeOf(newest).toEqualTypeOf<ListPostsResponse>();
    expect(newest).toEqual({
      success: true,
      posts: newestFirst([created.post, second.data?.post as Post]),
      count: 2,
      has_more: false,
      next_offset: 2,
    });
    const hot = await forum.GET("/api/v1/posts", { params: { query: { limit: 1 } } });
    expectConforms("forum", "GET", "/api/v1/posts", hot);
    expect(hot.data).toMatchObject({ count: 1, has_more: true, next_offset: 1 });
  });

  it("comments on a post, replies to a comment, and lists the comments oldest first", async () => {
    const forum = await newAgent("grace");
    const post = await newPost(forum, "Compilers");

    const top = await forum.post("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: post.id } },
      body: { content: "Which one do you use?" },
    });
    expectTypeOf(top).toEqualTypeOf<CommentResponse>();
    expect(top).toEqual({
      success: true,
      comment: {
        id: expect.stringMatching(UUID),
        post_id: post.id,
        parent_id: null,
        content: "Which one do you use?",
        upvotes: 0,
        downvotes: 0,
        author: { id: post.author.id, name: "grace" },
        created_at: expect.stringMatching(ISO_TIMESTAMP),
      },
    });
    const reply = await forum.POST("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: post.id } },
      body: { content: "My own.", parent_id: top.comment.id },
    });
    expectConforms("forum", "POST", "/api/v1/posts/{post_id}/comments", reply);
    expect(reply.response.status).toBe(201);
    expect(reply.data?.comment.parent_id).toBe(top.comment.id);

    const comments = await forum.get("/api/v1/posts/{post_id}/comments", { params: { path: { post_id: post.id } } });
    expectTypeOf(comments).toEqualTypeOf<ListCommentsResponse>();
    expectTypeOf(comments.comments).toEqualTypeOf<Comment[]>();
    expect(comments).toEqual({
      success: true,
      comments: oldestFirst([top.comment, reply.data?.comment as Comment]),
      count: 2,
      has_more: false,
      next_offset: 2,
    });
    const listed = await forum.GET("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: post.id }, query: { limit: 1, offset: 1 } },
    });
    expectConforms("forum", "GET", "/api/v1/posts/{post_id}/comments", listed);
    expect(listed.data).toMatchObject({ count: 1, has_more: false, next_offset: 2 });
    expect(listed.data?.comments).toEqual(comments.comments.slice(1));

    const counted = await forum.get("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } });
    expect(counted.post.comment_count).toBe(2);
  });

  it("votes up, takes the vote back, votes down and flips it", async () => {
    const forum = await newAgent("linus");
    const post = await newPost(forum, "Tabs or spaces");
    const vote = (direction: "up" | "down") =>
      forum.post("/api/v1/posts/{post_id}/vote", { params: { path: { post_id: post.id } }, body: { direction } });

    const up = await vote("up");
    expectTypeOf(up).toEqualTypeOf<VoteResponse>();
    expect(up).toEqual({ success: true, post_id: post.id, vote: "up", upvotes: 1, downvotes: 0, action: "upvoted" });
    expect(await vote("up")).toMatchObject({ vote: null, upvotes: 0, downvotes: 0, action: "removed" });
    expect(await vote("down")).toMatchObject({ vote: "down", upvotes: 0, downvotes: 1, action: "downvoted" });
    const flipped = await forum.POST("/api/v1/posts/{post_id}/vote", {
      params: { path: { post_id: post.id } },
      body: { direction: "up" },
    });
    expectConforms("forum", "POST", "/api/v1/posts/{post_id}/vote", flipped);
    expect(flipped.data).toMatchObject({ vote: "up", upvotes: 1, downvotes: 0, action: "changed" });

    const counted = await forum.get("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } });
    expect(counted.post).toMatchObject({ upvotes: 1, downvotes: 0 });
  });
});

describe("typed errors from real responses", () => {
  it("throws AuthenticationError for a key the server does not know", async () => {
    const stranger = createForumClient({ baseUrl: servers.main.forum.url, apiKey: "not-a-real-key" });
    const error = await stranger.get("/api/v1/posts", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    if (!(error instanceof AuthenticationError)) {
      return;
    }
    expect(error.status).toBe(401);
    expect(error.code).toBe("UNAUTHORIZED");
    expect(error.body).toEqual({
      success: false,
      error: expect.any(String),
      code: "UNAUTHORIZED",
      hint: expect.any(String),
    });

    const result = await stranger.POST("/api/v1/posts", { body: { title: "t", content: "c" } });
    expectConforms("forum", "POST", "/api/v1/posts", result);
    expect(result.error?.code).toBe("UNAUTHORIZED");
  });

  it("throws NotFoundError with the service's envelope for another agent's post, a missing parent and community", async () => {
    const owner = await newAgent("owner");
    const stranger = await newAgent("stranger");
    const post = await newPost(owner, "Mine");

    const error = await stranger
      .get("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    if (!(error instanceof NotFoundError)) {
      return;
    }
    expect(error.status).toBe(404);
    expect(error.code).toBe("NOT_FOUND");
    expect(error.body).toEqual({
      success: false,
      error: "Post not found.",
      code: "NOT_FOUND",
      hint: "Check the post id; list posts with GET /api/v1/posts.",
    });

    await expect(
      owner.post("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id: post.id } },
        body: { content: "a reply to nothing", parent_id: MISSING_ID },
      }),
    ).rejects.toMatchObject({ name: "NotFoundError", body: { code: "NOT_FOUND", error: "Parent comment not found." } });
    await expect(
      owner.post("/api/v1/posts", { body: { title: "Lost", content: "nowhere", community_id: MISSING_ID } }),
    ).rejects.toMatchObject({ name: "NotFoundError", body: { error: "Community not found." } });
    const vote = await stranger.POST("/api/v1/posts/{post_id}/vote", {
      params: { path: { post_id: post.id } },
      body: { direction: "up" },
    });
    expectConforms("forum", "POST", "/api/v1/posts/{post_id}/vote", vote);
    expect(vote.error?.code).toBe("NOT_FOUND");
  });

  it("throws BadRequestError with the forum's code and hint for invalid input", async () => {
    const forum = await newAgent("validator");
    const blank = await forum.post("/api/v1/posts", { body: { title: "", content: "c" } }).catch((e: unknown) => e);
    expect(blank).toBeInstanceOf(BadRequestError);
    if (!(blank instanceof BadRequestError)) {
      return;
    }
    expect(blank.status).toBe(400);
    expect(blank.code).toBe("VALIDATION_ERROR");
    expect(blank.body).toEqual({
      success: false,
      error: expect.stringMatching(/^title: /),
      code: "VALIDATION_ERROR",
      hint: expect.stringMatching(/\S/),
    });
    expect(blank.message).toContain("(hint: ");

    const tooLong = await forum.POST("/api/v1/posts", { body: { title: "x".repeat(301), content: "c" } });
    expectConforms("forum", "POST", "/api/v1/posts", tooLong);
    expect(tooLong.error).toMatchObject({ code: "VALIDATION_ERROR", error: expect.stringMatching(/^title: /) });

    await expect(forum.get("/api/v1/posts", { params: { query: { limit: 500 } } })).rejects.toMatchObject({
      name: "BadRequestError",
      code: "VALIDATION_ERROR",
      body: { error: expect.stringMatching(/^limit: /) },
    });
  });

  it("carries the server's request id on every thrown error", async () => {
    const { fetch, requests: exchanges } = fakeFetch([], forward);
    const forum = await newAgent("reporter", { fetch });
    const error = await forum
      .get("/api/v1/posts/{post_id}", { params: { path: { post_id: MISSING_ID } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    if (!(error instanceof NotFoundError)) {
      return;
    }
    const answered = exchanges.at(-1)?.response?.headers.get("x-request-id");
    expect(answered).toMatch(/^req_[0-9a-f]{16}$/);
    expect(error.requestId).toBe(answered);
    expect(error.message).toBe(
      `404 NOT_FOUND: Post not found. (hint: Check the post id; list posts with GET /api/v1/posts.) (request ${answered})`,
    );
  });
});

describe("pagination across real pages", () => {
  it("walks posts in offset pages, in the order of one big page", async () => {
    const { fetch, requests: exchanges } = fakeFetch([], forward);
    const forum = await newAgent("writer", { fetch });
    const created: Post[] = [];
    for (let i = 0; i < 7; i++) {
      created.push(await newPost(forum, `Post ${i}`));
    }
    const everything = (await forum.get("/api/v1/posts", { params: { query: { sort: "new", limit: 100 } } })).posts;
    expect(everything).toEqual(newestFirst(created));

    const before = exchanges.length;
    const walked: Post[] = [];
    for await (const post of forum.paginate("/api/v1/posts", { params: { query: { sort: "new", limit: 3 } } })) {
      expectTypeOf(post).toEqualTypeOf<Post>();
      walked.push(post);
    }
    expect(walked).toEqual(everything);
    expect(exchanges.slice(before).map((e) => new URL(e.url).searchParams.get("offset"))).toEqual([null, "3", "6"]);

    const hotPages: number[] = [];
    for await (const page of forum.paginate("/api/v1/posts", { params: { query: { limit: 2 } } }).pages()) {
      expectTypeOf(page).toEqualTypeOf<ListPostsResponse>();
      hotPages.push(page.count);
    }
    expect(hotPages).toEqual([2, 2, 2, 1]);
  });

  it("walks a post's comments from a given offset", async () => {
    const forum = await newAgent("chatty");
    const post = await newPost(forum, "Threads");
    const created: Comment[] = [];
    for (let i = 0; i < 5; i++) {
      const { comment } = await forum.post("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id: post.id } },
        body: { content: `Comment ${i}` },
      });
      created.push(comment);
    }
    const expected = oldestFirst(created);
    const comments = forum.paginate("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: post.id }, query: { limit: 2 } },
    });
    expect(await comments.toArray()).toEqual(expected);
    expect(await comments.firstPage()).toMatchObject({ count: 2, has_more: true, next_offset: 2 });
    const fromOffset = await forum
      .paginate("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id: post.id }, query: { limit: 2, offset: 3 } },
      })
      .toArray();
    expect(fromOffset).toEqual(expected.slice(3));
  });
});

describe("retries", () => {
  it("never repeats a write whose answer was lost, but retries a lost read", async () => {
    const { fetch, requests: exchanges } = fakeFetch([dropAnswer()], forward);
    const forum = await newAgent("careful", { fetch });

    // The server stored the post; only its answer was lost. Sending it again would post it twice.
    await expect(forum.post("/api/v1/posts", { body: { title: "Once", content: "only once" } })).rejects.toBeInstanceOf(
      APIConnectionError,
    );
    expect(exchanges.map((e) => [e.method, e.response?.status, e.dropped])).toEqual([["POST", 201, true]]);

    const { fetch: lossyReads, requests: reads } = fakeFetch([dropAnswer()], forward);
    const listed = await forum.withOptions({ fetch: lossyReads }).get("/api/v1/posts", {});
    expect(listed.posts.map((p) => p.title)).toEqual(["Once"]);
    expect(reads.map((e) => [e.method, e.response?.status, e.dropped])).toEqual([
      ["GET", 200, true],
      ["GET", 200, false],
    ]);
  });

  it("throws RateLimitError with retryAfter once the read budget is spent", async () => {
    const forum = await newAgent("reader", { maxRetries: 0 }, servers.limited);
    servers.clock.moveNearWindowEnd(2_500);
    await forum.get("/api/v1/posts", {});
    await forum.get("/api/v1/posts", {});
    const error = await forum.get("/api/v1/posts", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    if (!(error instanceof RateLimitError)) {
      return;
    }
    expect(error.status).toBe(429);
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.retryAfter).toBeGreaterThanOrEqual(1);
    expect(error.retryAfter).toBeLessThanOrEqual(3);
    expect(error.body?.hint).toContain(`${error.retryAfter} seconds`);
    expect(error.headers.get("x-ratelimit-limit")).toBe("2");
  });

  it("sends a rate-limited write again after Retry-After, and the post is stored once", async () => {
    const { fetch, requests: exchanges } = fakeFetch([], forward);
    const forum = await newAgent("patient", { fetch }, servers.limited);
    servers.clock.moveNearWindowEnd(2_500);
    await newPost(forum, "First");
    const second = await newPost(forum, "Second");

    const [limitedAttempt, retry] = exchanges.slice(1);
    expect([limitedAttempt?.response?.status, retry?.response?.status]).toEqual([429, 201]);
    const asked = Number(limitedAttempt?.response?.headers.get("retry-after"));
    expect(asked).toBeGreaterThanOrEqual(1);
    expect(asked).toBeLessThanOrEqual(3);
    expect((retry?.sentAt ?? 0) - (limitedAttempt?.sentAt ?? 0)).toBeGreaterThanOrEqual(asked * 1000 - 5);

    const posts = await forum.get("/api/v1/posts", { params: { query: { sort: "new" } } });
    expect(posts.posts.map((p) => [p.id, p.title])).toEqual([
      [second.id, "Second"],
      [expect.any(String), "First"],
    ]);
  });
});
