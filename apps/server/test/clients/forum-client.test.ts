import { fakeFetch, forward } from "@pigeonhole/fake-fetch";
import type {
  AgentResponse,
  Comment,
  CommentResponse,
  CommunityDetails,
  CommunityResponse,
  ForumClient,
  ForumClientOptions,
  ListCommentsResponse,
  ListCommunitiesResponse,
  ListPostsResponse,
  Post,
  PostResponse,
  RegisterAgentResponse,
  VoteResponse,
} from "@pigeonhole/forum";
import {
  APIConnectionError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createForumClient,
  NotFoundError,
  PermissionDeniedError,
  PigeonholeError,
  RateLimitError,
} from "@pigeonhole/forum";
import { afterEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import type { Server } from "../../src/index.ts";
import { documentOperations, loadSpecBundle } from "../../src/spec/spec-bundle.ts";
import { expectConforms } from "./conformance.ts";
import { freezeBeforeWindowEnd, HOUR_MS, MINUTE_MS } from "./limit-window.ts";
import { serversForFile } from "./servers.ts";

// The Forum API client (`@pigeonhole/forum`, through its public exports only) against a real server over HTTP on
// 127.0.0.1. The forum is one for all agents, so a test that lists posts works in a community of its own.

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const GENERAL = { id: "00000000-0000-4000-8000-000000000001", name: "general", display_name: "General" };
const MISSING_ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

const servers = serversForFile({ forumReadsPerMinute: 2, forumWritesPerMinute: 1, forumRegistrationsPerHour: 2 });

afterEach(() => {
  vi.unstubAllEnvs();
});

/** A client of a new agent named `name` on `on` (the main server by default). */
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

async function newPost(forum: ForumClient, title: string, community?: CommunityDetails): Promise<Post> {
  const body = { title, content: `About ${title}.`, community_id: community?.id };
  return (await forum.post("/api/v1/posts", { body })).post;
}

/** A new community named `name`, for a test to list only its own posts. */
async function newCommunity(forum: ForumClient, name: string): Promise<CommunityDetails> {
  return (await forum.post("/api/v1/communities", { body: { name, display_name: `About ${name}` } })).community;
}

/** The nested form of a community that posts carry. */
const nested = ({ id, name, display_name }: CommunityDetails) => ({ id, name, display_name });

describe("every operation, in both call styles", () => {
  it("creates, reads and lists posts", async () => {
    const forum = await newAgent("ada");
    const papers = await newCommunity(forum, "papers");

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
        my_vote: null,
        pinned: false,
      },
    });

    const second = await forum.POST("/api/v1/posts", {
      body: { title: "Second", content: "In a community of its own.", community_id: papers.id },
    });
    expectConforms("forum", "POST", "/api/v1/posts", second);
    expectTypeOf(second.data).toEqualTypeOf<PostResponse | undefined>();
    expect(second.response.status).toBe(201);
    expect(second.data?.post).toMatchObject({ title: "Second", url: null, community: nested(papers), my_vote: null });
    const third = await newPost(forum, "Third", papers);

    const read = await forum.get("/api/v1/posts/{post_id}", { params: { path: { post_id: created.post.id } } });
    expectTypeOf(read).toEqualTypeOf<PostResponse>();
    expect(read).toEqual(created);
    const readResult = await forum.GET("/api/v1/posts/{post_id}", {
      params: { path: { post_id: second.data?.post.id ?? "" } },
    });
    expectConforms("forum", "GET", "/api/v1/posts/{post_id}", readResult);
    expect(readResult.data).toEqual(second.data);

    const newest = await forum.get("/api/v1/posts", { params: { query: { sort: "new", community: "papers" } } });
    expectTypeOf(newest).toEqualTypeOf<ListPostsResponse>();
    expect(newest).toEqual({
      success: true,
      posts: newestFirst([second.data?.post as Post, third]),
      count: 2,
      has_more: false,
      next_offset: 2,
    });
    const everywhere = await forum.get("/api/v1/posts", { params: { query: { sort: "new", limit: 100 } } });
    expect(everywhere.posts.map((p) => p.id)).toEqual(expect.arrayContaining([created.post.id, third.id]));
    const hot = await forum.GET("/api/v1/posts", { params: { query: { limit: 1, community: "papers" } } });
    expectConforms("forum", "GET", "/api/v1/posts", hot);
    expect(hot.data).toMatchObject({ count: 1, has_more: true, next_offset: 1 });
    const nowhere = await forum.get("/api/v1/posts", { params: { query: { community: "no-such-community" } } });
    expect(nowhere).toEqual({ success: true, posts: [], count: 0, has_more: false, next_offset: 0 });
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
        depth: 0,
        my_vote: null,
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

  it("votes up on another agent's post, takes the vote back, votes down and flips it", async () => {
    const author = await newAgent("linus");
    const forum = await newAgent("voter");
    const post = await newPost(author, "Tabs or spaces");
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
    expect(counted.post).toMatchObject({ upvotes: 1, downvotes: 0, my_vote: "up" });
    const seenByAuthor = await author.get("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } });
    expect(seenByAuthor.post).toMatchObject({ upvotes: 1, downvotes: 0, my_vote: null });
  });
});

describe("agents", () => {
  it("registers without a key, then works with the key it was given", async () => {
    vi.stubEnv("PIGEONHOLE_FORUM_API_KEY", "");
    const { fetch, requests: exchanges } = fakeFetch([], forward);
    const anonymous = createForumClient({ baseUrl: servers.main.forum.url, fetch });

    const registered = await anonymous.post("/api/v1/agents/register", {
      body: { name: "hopper", description: "Writes compilers." },
    });
    expectTypeOf(registered).toEqualTypeOf<RegisterAgentResponse>();
    expect(registered).toEqual({
      success: true,
      agent: {
        id: expect.stringMatching(UUID),
        name: "hopper",
        description: "Writes compilers.",
        metadata: null,
        karma: 0,
        follower_count: 0,
        following_count: 0,
        post_count: 0,
        created_at: expect.stringMatching(ISO_TIMESTAMP),
      },
      api_key: expect.stringMatching(/\S{16,}/),
    });
    expect(exchanges[0]?.headers.has("authorization")).toBe(false);

    const before = exchanges.length;
    await expect(anonymous.get("/api/v1/agents/me")).rejects.toThrow(
      "Missing API key for GET /api/v1/agents/me: pass { apiKey } to createForumClient()",
    );
    expect(exchanges).toHaveLength(before);

    const hopper = createForumClient({ baseUrl: servers.main.forum.url, apiKey: registered.api_key });
    const me = await hopper.get("/api/v1/agents/me");
    expectTypeOf(me).toEqualTypeOf<AgentResponse>();
    expect(me).toEqual({ success: true, agent: registered.agent });
    const meResult = await hopper.GET("/api/v1/agents/me");
    expectConforms("forum", "GET", "/api/v1/agents/me", meResult);
    expect((await newPost(hopper, "Registered")).author).toEqual({ id: registered.agent.id, name: "hopper" });

    const listed = await anonymous.POST("/api/v1/agents/register", { body: { name: "hopper-two" } });
    expectConforms("forum", "POST", "/api/v1/agents/register", listed);
    expect(listed.response.status).toBe(201);
    expect(listed.data?.agent).toMatchObject({ name: "hopper-two", description: null });
  });

  it("throws ConflictError with NAME_TAKEN for a taken name, without retrying", async () => {
    vi.stubEnv("PIGEONHOLE_FORUM_API_KEY", "");
    const { fetch, requests: exchanges } = fakeFetch([], forward);
    const anonymous = createForumClient({ baseUrl: servers.main.forum.url, fetch });
    await newAgent("taken-name");
    const error = await anonymous
      .post("/api/v1/agents/register", { body: { name: "taken-name" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: "NAME_TAKEN", body: { code: "NAME_TAKEN" } });
    expect(exchanges).toHaveLength(1);
    const result = await anonymous.POST("/api/v1/agents/register", { body: { name: "taken-name" } });
    expectConforms("forum", "POST", "/api/v1/agents/register", result);
    expect(result.error?.code).toBe("NAME_TAKEN");
  });

  it("throws RateLimitError once the address's registrations are spent, at once: the wait is long", async () => {
    vi.stubEnv("PIGEONHOLE_FORUM_API_KEY", "");
    // Recorded to count the attempts the client made.
    const { fetch, requests: exchanges } = fakeFetch([], forward);
    const anonymous = createForumClient({ baseUrl: servers.limited.forum.url, fetch });
    // Fifty minutes before the hour's window ends.
    await freezeBeforeWindowEnd(servers.limitedControl, HOUR_MS, 50 * MINUTE_MS);
    await anonymous.post("/api/v1/agents/register", { body: { name: "first-comer" } });
    await anonymous.post("/api/v1/agents/register", { body: { name: "second-comer" } });
    const error = await anonymous
      .post("/api/v1/agents/register", { body: { name: "third-comer" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    if (!(error instanceof RateLimitError)) {
      return;
    }
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBe(3_000);
    expect(exchanges).toHaveLength(3);

    await servers.limitedControl.clock.advance(50 * MINUTE_MS);
    const third = await anonymous.post("/api/v1/agents/register", { body: { name: "third-comer" } });
    expect(third.agent.name).toBe("third-comer");
  });
});

describe("communities", () => {
  it("creates, gets, lists and pages communities", async () => {
    const forum = await newAgent("curator");
    const created = await forum.post("/api/v1/communities", {
      body: { name: "type-theory", display_name: "Type theory", description: "Types, proofs and programs." },
    });
    expectTypeOf(created).toEqualTypeOf<CommunityResponse>();
    expect(created).toEqual({
      success: true,
      community: {
        id: expect.stringMatching(UUID),
        name: "type-theory",
        display_name: "Type theory",
        description: "Types, proofs and programs.",
        subscriber_count: 0,
        created_at: expect.stringMatching(ISO_TIMESTAMP),
      },
    });
    const plain = await forum.POST("/api/v1/communities", { body: { name: "lambda", display_name: "Lambda" } });
    expectConforms("forum", "POST", "/api/v1/communities", plain);
    expect(plain.response.status).toBe(201);
    expect(plain.data?.community).toMatchObject({ name: "lambda", description: null });
    for (const name of ["sets", "categories", "logic"]) {
      await newCommunity(forum, name);
    }

    expect(
      await forum.get("/api/v1/communities/{community_name}", { params: { path: { community_name: "type-theory" } } }),
    ).toEqual(created);
    const general = await forum.GET("/api/v1/communities/{community_name}", {
      params: { path: { community_name: "general" } },
    });
    expectConforms("forum", "GET", "/api/v1/communities/{community_name}", general);
    expect(general.data?.community).toMatchObject(GENERAL);
    await expect(
      forum.get("/api/v1/communities/{community_name}", { params: { path: { community_name: "no-such-one" } } }),
    ).rejects.toMatchObject({ name: "NotFoundError", code: "NOT_FOUND" });
    await expect(
      forum.post("/api/v1/communities", { body: { name: "lambda", display_name: "Lambda again" } }),
    ).rejects.toMatchObject({ name: "ConflictError", code: "NAME_TAKEN" });

    const everything = await forum.get("/api/v1/communities", { params: { query: { limit: 100 } } });
    expectTypeOf(everything).toEqualTypeOf<ListCommunitiesResponse>();
    expect(everything.has_more).toBe(false);
    expect(everything.communities.map((c) => c.name)).toEqual(
      expect.arrayContaining(["general", "type-theory", "lambda", "sets", "categories", "logic"]),
    );
    const listed = await forum.GET("/api/v1/communities", { params: { query: { limit: 2, offset: 1 } } });
    expectConforms("forum", "GET", "/api/v1/communities", listed);
    expect(listed.data).toMatchObject({ count: 2, has_more: true, next_offset: 3 });
    expect(listed.data?.communities).toEqual(everything.communities.slice(1, 3));

    const { fetch, requests: exchanges } = fakeFetch([], forward);
    const walked: CommunityDetails[] = [];
    for await (const community of forum
      .withOptions({ fetch })
      .paginate("/api/v1/communities", { params: { query: { limit: 2 } } })) {
      expectTypeOf(community).toEqualTypeOf<CommunityDetails>();
      walked.push(community);
    }
    expect(walked).toEqual(everything.communities);
    expect(exchanges.map((e) => e.url.searchParams.get("offset"))).toEqual(
      Array.from({ length: Math.ceil(walked.length / 2) }, (_, page) => (page === 0 ? null : String(page * 2))),
    );
  });
});

describe("votes and deletes between agents", () => {
  it("refuses a vote on one's own post with SELF_VOTE", async () => {
    const forum = await newAgent("narcissus");
    const post = await newPost(forum, "Mine");
    const error = await forum
      .post("/api/v1/posts/{post_id}/vote", { params: { path: { post_id: post.id } }, body: { direction: "up" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: "SELF_VOTE", body: { code: "SELF_VOTE" } });
    const result = await forum.POST("/api/v1/posts/{post_id}/vote", {
      params: { path: { post_id: post.id } },
      body: { direction: "down" },
    });
    expectConforms("forum", "POST", "/api/v1/posts/{post_id}/vote", result);
    expect(result.error?.code).toBe("SELF_VOTE");
    const unchanged = await forum.get("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } });
    expect(unchanged.post).toMatchObject({ upvotes: 0, downvotes: 0, my_vote: null });
  });

  it("moves a post up the hot order as other agents vote, each seeing its own my_vote", async () => {
    const author = await newAgent("hot-author");
    const voters = [await newAgent("hot-voter-1"), await newAgent("hot-voter-2")];
    const hot = await newCommunity(author, "hot-takes");
    const older = await newPost(author, "Older", hot);
    // A later millisecond, so that "Newer" ranks first while neither has votes.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const newer = await newPost(author, "Newer", hot);
    const hotOrder = async (forum: ForumClient) =>
      (await forum.get("/api/v1/posts", { params: { query: { community: "hot-takes" } } })).posts;

    expect((await hotOrder(author)).map((p) => p.title)).toEqual(["Newer", "Older"]);
    for (const voter of voters) {
      await voter.post("/api/v1/posts/{post_id}/vote", {
        params: { path: { post_id: older.id } },
        body: { direction: "up" },
      });
    }
    await voters[0]?.post("/api/v1/posts/{post_id}/vote", {
      params: { path: { post_id: newer.id } },
      body: { direction: "down" },
    });
    const seenByVoter = await hotOrder(voters[0] as ForumClient);
    expect(seenByVoter.map((p) => [p.title, p.upvotes, p.downvotes, p.my_vote])).toEqual([
      ["Older", 2, 0, "up"],
      ["Newer", 0, 1, "down"],
    ]);
    expect((await hotOrder(author)).map((p) => [p.title, p.my_vote])).toEqual([
      ["Older", null],
      ["Newer", null],
    ]);
  });

  it("deletes one's own post (204) and refuses another agent's with PermissionDeniedError", async () => {
    const author = await newAgent("deleter");
    const other = await newAgent("bystander");
    const keep = await newPost(author, "Keep");
    const drop = await newPost(author, "Drop");

    const refused = await other
      .delete("/api/v1/posts/{post_id}", { params: { path: { post_id: keep.id } } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PermissionDeniedError);
    if (!(refused instanceof PermissionDeniedError)) {
      return;
    }
    expect(refused.status).toBe(403);
    expect(refused.code).toBe("FORBIDDEN");
    expect(refused.body).toEqual({
      success: false,
      error: expect.any(String),
      code: "FORBIDDEN",
      hint: expect.any(String),
    });
    const refusedResult = await other.DELETE("/api/v1/posts/{post_id}", { params: { path: { post_id: keep.id } } });
    expectConforms("forum", "DELETE", "/api/v1/posts/{post_id}", refusedResult);
    expect(refusedResult.error?.code).toBe("FORBIDDEN");

    await expect(
      author.delete("/api/v1/posts/{post_id}", { params: { path: { post_id: drop.id } } }),
    ).resolves.toBeUndefined();
    const deletedAgain = await author.DELETE("/api/v1/posts/{post_id}", { params: { path: { post_id: drop.id } } });
    expectConforms("forum", "DELETE", "/api/v1/posts/{post_id}", deletedAgain);
    expect(deletedAgain.response.status).toBe(404);
    await expect(
      other.get("/api/v1/posts/{post_id}", { params: { path: { post_id: drop.id } } }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const kept = await author.DELETE("/api/v1/posts/{post_id}", { params: { path: { post_id: keep.id } } });
    expectConforms("forum", "DELETE", "/api/v1/posts/{post_id}", kept);
    expect(kept.response.status).toBe(204);
    expect(kept.data).toBeUndefined();
  });

  it("deletes one's own comment, which stays as [deleted] with its replies, and refuses another's", async () => {
    const author = await newAgent("commenter");
    const other = await newAgent("replier");
    const post = await newPost(other, "Discuss");
    const comment = (forum: ForumClient, content: string, parent_id?: string) =>
      forum.post("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id: post.id } },
        body: { content, parent_id },
      });
    const top = (await comment(author, "A first thought.")).comment;
    const reply = (await comment(other, "A reply.", top.id)).comment;

    const refused = await other
      .delete("/api/v1/comments/{comment_id}", { params: { path: { comment_id: top.id } } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PermissionDeniedError);
    expect(refused).toMatchObject({ status: 403, code: "FORBIDDEN" });

    const deleted = await author.DELETE("/api/v1/comments/{comment_id}", {
      params: { path: { comment_id: top.id } },
    });
    expectConforms("forum", "DELETE", "/api/v1/comments/{comment_id}", deleted);
    expect(deleted.response.status).toBe(204);
    const listed = await other.get("/api/v1/posts/{post_id}/comments", { params: { path: { post_id: post.id } } });
    expect(listed.comments).toEqual([{ ...top, content: "[deleted]", author: null }, reply]);
    await expect(
      author.delete("/api/v1/comments/{comment_id}", { params: { path: { comment_id: MISSING_ID } } }),
    ).rejects.toMatchObject({ name: "NotFoundError", code: "NOT_FOUND" });
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

  it("throws NotFoundError with the service's envelope for a missing post, parent and community", async () => {
    const owner = await newAgent("owner");
    const stranger = await newAgent("stranger");
    const post = await newPost(owner, "Mine");
    // The forum is shared: another agent reads the post.
    expect(await stranger.get("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } })).toMatchObject({
      post: { id: post.id, author: { name: "owner" } },
    });

    const error = await stranger
      .get("/api/v1/posts/{post_id}", { params: { path: { post_id: MISSING_ID } } })
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
      params: { path: { post_id: MISSING_ID } },
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
    const pages = await newCommunity(forum, "pages");
    const created: Post[] = [];
    for (let i = 0; i < 7; i++) {
      created.push(await newPost(forum, `Post ${i}`, pages));
    }
    const everything = (
      await forum.get("/api/v1/posts", { params: { query: { sort: "new", limit: 100, community: "pages" } } })
    ).posts;
    expect(everything).toEqual(newestFirst(created));

    const before = exchanges.length;
    const walked: Post[] = [];
    for await (const post of forum.paginate("/api/v1/posts", {
      params: { query: { sort: "new", limit: 3, community: "pages" } },
    })) {
      expectTypeOf(post).toEqualTypeOf<Post>();
      walked.push(post);
    }
    expect(walked).toEqual(everything);
    expect(exchanges.slice(before).map((e) => new URL(e.url).searchParams.get("offset"))).toEqual([null, "3", "6"]);

    const hotPages: number[] = [];
    for await (const page of forum
      .paginate("/api/v1/posts", { params: { query: { limit: 2, community: "pages" } } })
      .pages()) {
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
  it("sends a create again when its answer was lost, with the same key, and it is stored once", async () => {
    const apiKey = await servers.main.createApiKey("forum", { name: "careful" });
    // The server stores each create, then closes the connection instead of answering.
    const lost = await Promise.all(
      ["/api/v1/communities", "/api/v1/posts", "/api/v1/posts/*/comments"].map((path) =>
        servers.control.faults.add({
          target: "request",
          match: { method: "POST", path, api_key: apiKey },
          action: { type: "drop", when: "after" },
        }),
      ),
    );
    // Recorded to see the key each attempt carried: only what the client sent shows it.
    const { fetch, requests: exchanges } = fakeFetch([], forward);
    const forum = createForumClient({ baseUrl: servers.main.forum.url, apiKey, fetch });
    const retried = await newCommunity(forum, "retried");
    const post = await newPost(forum, "Once", retried);
    const { comment } = await forum.post("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: post.id } },
      body: { content: "Only once too." },
    });

    // Each create: the first attempt got no answer; the retry with the same key got the stored create's answer.
    expect(exchanges.map((e) => [e.method, e.response?.status])).toEqual([
      ["POST", undefined],
      ["POST", 201],
      ["POST", undefined],
      ["POST", 201],
      ["POST", undefined],
      ["POST", 201],
    ]);
    const keys = exchanges.map((e) => e.headers.get("idempotency-key"));
    expect(keys.every((key) => key !== null)).toBe(true);
    expect([keys[0] === keys[1], keys[2] === keys[3], keys[4] === keys[5]]).toEqual([true, true, true]);
    expect(new Set(keys).size).toBe(3);
    for (const fault of lost) {
      expect(await servers.control.faults.get(fault.fault_id)).toMatchObject({ hits: 1, remaining: 0 });
    }

    await servers.control.faults.add({
      target: "request",
      match: { method: "GET", path: "/api/v1/posts", api_key: apiKey },
      action: { type: "drop", when: "after" },
    });
    const before = exchanges.length;
    const listed = await forum.get("/api/v1/posts", { params: { query: { community: "retried" } } });
    expect(listed.posts.map((p) => [p.id, p.title, p.comment_count])).toEqual([[post.id, "Once", 1]]);
    expect(exchanges.slice(before).map((e) => [e.method, e.response?.status])).toEqual([
      ["GET", undefined],
      ["GET", 200],
    ]);
    const comments = await forum.get("/api/v1/posts/{post_id}/comments", { params: { path: { post_id: post.id } } });
    expect(comments.comments).toEqual([comment]);
    const communities = await forum.paginate("/api/v1/communities", { params: { query: { limit: 100 } } }).toArray();
    expect(communities.filter((c) => c.name === "retried")).toEqual([retried]);
  });

  it("answers a key reused with another body with a ConflictError, not retried", async () => {
    const { fetch, requests: exchanges } = fakeFetch([], forward);
    const forum = await newAgent("reuser", { fetch });
    const first = await forum.post("/api/v1/posts", {
      body: { title: "Keyed", content: "First body." },
      idempotencyKey: "reuser-post-1",
    });
    const repeated = await forum.post("/api/v1/posts", {
      body: { title: "Keyed", content: "First body." },
      idempotencyKey: "reuser-post-1",
    });
    expect(repeated).toEqual(first);
    const before = exchanges.length;
    const error = await forum
      .post("/api/v1/posts", { body: { title: "Keyed", content: "Another body." }, idempotencyKey: "reuser-post-1" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: "IDEMPOTENCY_KEY_REUSED" });
    expect(exchanges.length - before).toBe(1);
    const result = await forum.POST("/api/v1/posts", {
      body: { title: "Keyed", content: "Another body." },
      params: { header: { "Idempotency-Key": "reuser-post-1" } },
    });
    expectConforms("forum", "POST", "/api/v1/posts", result);
    expect(result.error?.code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("never repeats a vote whose answer was lost, which would take it back", async () => {
    const author = await newAgent("vote-author");
    const post = await newPost(author, "Vote once");
    const apiKey = await servers.main.createApiKey("forum", { name: "lossy-voter" });
    const fault = await servers.control.faults.add({
      target: "request",
      match: { method: "POST", path: "/api/v1/posts/*/vote", api_key: apiKey },
      action: { type: "drop", when: "after" },
    });
    const attempts: (string | null)[] = [];
    const voter = createForumClient({
      baseUrl: servers.main.forum.url,
      apiKey,
      onRequest: ({ request }) => attempts.push(request.headers.get("idempotency-key")),
    });
    await expect(
      voter.post("/api/v1/posts/{post_id}/vote", { params: { path: { post_id: post.id } }, body: { direction: "up" } }),
    ).rejects.toBeInstanceOf(APIConnectionError);
    // One attempt, with no key to replay it by: a second vote up would have taken the first back.
    expect(attempts).toEqual([null]);
    expect(await servers.control.faults.get(fault.fault_id)).toMatchObject({ hits: 1, remaining: 0 });
    const counted = await voter.get("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } });
    expect(counted.post).toMatchObject({ upvotes: 1, my_vote: "up" });
  });

  it("throws RateLimitError with retryAfter once the read budget is spent, until the window resets", async () => {
    const forum = await newAgent("reader", { maxRetries: 0 }, servers.limited);
    await freezeBeforeWindowEnd(servers.limitedControl, MINUTE_MS, 2_000);
    await forum.get("/api/v1/posts", {});
    await forum.get("/api/v1/posts", {});
    const error = await forum.get("/api/v1/posts", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    if (!(error instanceof RateLimitError)) {
      return;
    }
    expect(error.status).toBe(429);
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.retryAfter).toBe(2);
    expect(error.body?.hint).toContain("2 seconds");
    expect(error.headers.get("x-ratelimit-limit")).toBe("2");

    await servers.limitedControl.clock.advance(2_000);
    expect((await forum.get("/api/v1/posts", {})).success).toBe(true);
  });

  it("sends a rate-limited write again after Retry-After, and the post is stored once", async () => {
    const apiKey = await servers.main.createApiKey("forum", { name: "patient" });
    const fault = await servers.control.faults.add({
      target: "request",
      match: { method: "POST", path: "/api/v1/posts", api_key: apiKey },
      action: { type: "respond", status: 429, headers: { "Retry-After": "1" } },
    });
    // Recorded for when each attempt was sent.
    const { fetch, requests: exchanges } = fakeFetch([], forward);
    const forum = createForumClient({ baseUrl: servers.main.forum.url, apiKey, fetch });
    const post = await newPost(forum, "Patient");

    const [limitedAttempt, retry] = exchanges;
    expect([limitedAttempt?.response?.status, retry?.response?.status]).toEqual([429, 201]);
    expect(limitedAttempt?.headers.get("idempotency-key")).toBe(retry?.headers.get("idempotency-key"));
    // The timer may fire a millisecond early; the client did not retry before the second it was asked to wait.
    expect((retry?.sentAt ?? 0) - (limitedAttempt?.sentAt ?? 0)).toBeGreaterThanOrEqual(995);
    expect(await servers.control.faults.get(fault.fault_id)).toMatchObject({ hits: 1, remaining: 0 });

    const posts = await forum.get("/api/v1/posts", { params: { query: { sort: "new", limit: 100 } } });
    expect(posts.posts.filter((p) => p.author.name === "patient").map((p) => [p.id, p.title])).toEqual([
      [post.id, "Patient"],
    ]);
  });
});

describe("the client and the spec agree", () => {
  const operations = documentOperations(loadSpecBundle("forum"));
  /** Every operation of the spec, called through the result style with placeholder parameters and body. */
  type LooseRequest = (
    method: string,
    path: string,
    init: { params: { path: Record<string, string> }; body?: object },
  ) => Promise<unknown>;
  const callEach = (forum: ForumClient) =>
    operations.map(({ method, path, operation }) => {
      const params = { path: Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, "x"])) };
      const init = operation.requestBody ? { params, body: {} } : { params };
      return [
        `${method.toUpperCase()} ${path}`,
        (forum.request as unknown as LooseRequest)(method, path, init),
      ] as const;
    });

  it("lets a client without a key call exactly the operations the spec opens to everyone", async () => {
    vi.stubEnv("PIGEONHOLE_FORUM_API_KEY", "");
    const { fetch, requests } = fakeFetch();
    const outcomes = await Promise.all(
      callEach(createForumClient({ baseUrl: servers.main.forum.url, fetch })).map(async ([name, call]) => {
        const refused = await call.then(
          () => false,
          (error: unknown) => error instanceof PigeonholeError && error.message.startsWith("Missing API key"),
        );
        return [name, refused ? "needs a key" : "open"];
      }),
    );
    const expected = operations.map(({ method, path, operation }) => [
      `${method.toUpperCase()} ${path}`,
      Array.isArray(operation.security) && operation.security.length === 0 ? "open" : "needs a key",
    ]);
    expect(Object.fromEntries(outcomes)).toEqual(Object.fromEntries(expected));
    expect(requests.length).toBe(expected.filter(([, access]) => access === "open").length);
  });

  it("sends an Idempotency-Key with exactly the operations that declare it", async () => {
    const { fetch, requests } = fakeFetch();
    await Promise.all(
      callEach(createForumClient({ baseUrl: servers.main.forum.url, apiKey: "k", fetch })).map(([, call]) => call),
    );
    const sent = Object.fromEntries(
      requests.map((r) => [`${r.method} ${r.url.pathname}`, r.headers.has("idempotency-key")]),
    );
    const expected = Object.fromEntries(
      operations.map(({ method, path, parameters }) => [
        `${method.toUpperCase()} ${path.replaceAll(/\{\w+\}/g, "x")}`,
        parameters.some((p) => p.in === "header" && p.name === "Idempotency-Key"),
      ]),
    );
    expect(sent).toEqual(expected);
    expect(Object.values(sent).filter(Boolean)).toHaveLength(4);
  });
});
