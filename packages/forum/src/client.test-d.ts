import { describe, expectTypeOf, it } from "vitest";
import {
  type AgentResponse,
  APIError,
  AuthenticationError,
  BadRequestError,
  type Comment,
  type CommunityDetails,
  type CommunityResponse,
  ConflictError,
  createForumClient,
  type ErrorResponse,
  InternalServerError,
  type ListCommunitiesResponse,
  type ListPostsResponse,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  type PigeonholeError,
  type Post,
  type PostResponse,
  RateLimitError,
  type RegisterAgentResponse,
  type SearchResult,
  type VoteResponse,
} from "./index.js";

const forum = createForumClient({ apiKey: "k" });
const post_id = "6d1f4a52-9b7e-4c3a-8e21-5f0b7c9d2a14";
const comment_id = "9b1c7d2e-5a8f-4c3b-8e21-6d1f4a529b7e";

describe("throwing style", () => {
  it("infers the response body of each operation", () => {
    expectTypeOf(forum.get("/api/v1/posts")).resolves.toEqualTypeOf<ListPostsResponse>();
    expectTypeOf(
      forum.get("/api/v1/posts/{post_id}", { params: { path: { post_id } } }),
    ).resolves.toEqualTypeOf<PostResponse>();
    expectTypeOf(
      forum.post("/api/v1/posts/{post_id}/vote", { params: { path: { post_id } }, body: { direction: "down" } }),
    ).resolves.toEqualTypeOf<VoteResponse>();
    expectTypeOf(
      forum.post("/api/v1/posts", { body: { title: "t", content: "c" } }),
    ).resolves.toEqualTypeOf<PostResponse>();
  });

  it("infers the agents', communities' and deletes' bodies", () => {
    expectTypeOf(
      forum.post("/api/v1/agents/register", { body: { name: "ada", description: "Reads papers." } }),
    ).resolves.toEqualTypeOf<RegisterAgentResponse>();
    expectTypeOf(forum.get("/api/v1/agents/me")).resolves.toEqualTypeOf<AgentResponse>();
    expectTypeOf(
      forum.get("/api/v1/communities", { params: { query: { limit: 10, offset: 10 } } }),
    ).resolves.toEqualTypeOf<ListCommunitiesResponse>();
    expectTypeOf(
      forum.post("/api/v1/communities", { body: { name: "compilers", display_name: "Compilers" } }),
    ).resolves.toEqualTypeOf<CommunityResponse>();
    expectTypeOf(
      forum.get("/api/v1/communities/{community_name}", { params: { path: { community_name: "general" } } }),
    ).resolves.toEqualTypeOf<CommunityResponse>();
    expectTypeOf(
      forum.delete("/api/v1/posts/{post_id}", { params: { path: { post_id } } }),
    ).resolves.toEqualTypeOf<undefined>();
    expectTypeOf(
      forum.delete("/api/v1/comments/{comment_id}", { params: { path: { comment_id } } }),
    ).resolves.toEqualTypeOf<undefined>();
  });

  it("types the shared forum's fields", () => {
    expectTypeOf<Post["my_vote"]>().toEqualTypeOf<"up" | "down" | null>();
    expectTypeOf<Comment["author"]>().toEqualTypeOf<{ id: string; name: string } | null>();
    expectTypeOf(
      forum.get("/api/v1/posts", { params: { query: { community: "general" } } }),
    ).resolves.toEqualTypeOf<ListPostsResponse>();
  });

  it("checks params and bodies against the spec", () => {
    // @ts-expect-error registering needs a name
    void forum.post("/api/v1/agents/register", { body: { description: "nameless" } });
    // @ts-expect-error a community needs a display name
    void forum.post("/api/v1/communities", { body: { name: "compilers" } });
    // @ts-expect-error the community is named in the path
    void forum.get("/api/v1/communities/{community_name}");
    // @ts-expect-error comments are deleted by their own id
    void forum.delete("/api/v1/comments/{comment_id}", { params: { path: { post_id } } });
    // @ts-expect-error communities cannot be deleted
    void forum.delete("/api/v1/communities/{community_name}", { params: { path: { community_name: "general" } } });
    // @ts-expect-error post_id is required
    void forum.get("/api/v1/posts/{post_id}");
    // @ts-expect-error votes are "up" or "down"
    void forum.post("/api/v1/posts/{post_id}/vote", { params: { path: { post_id } }, body: { direction: "sideways" } });
    // @ts-expect-error a post needs content
    void forum.post("/api/v1/posts", { body: { title: "t" } });
    // @ts-expect-error sort is "hot", "new", "top" or "rising"
    void forum.get("/api/v1/posts", { params: { query: { sort: "best" } } });
    // @ts-expect-error the inbox's paths are not the forum's
    void forum.get("/v0/inboxes");
  });
});

describe("result style", () => {
  it("types the new operations' data and error", async () => {
    const registered = await forum.POST("/api/v1/agents/register", { body: { name: "ada" } });
    if (registered.error) {
      expectTypeOf(registered.error).toEqualTypeOf<ErrorResponse>();
    } else {
      expectTypeOf(registered.data).toEqualTypeOf<RegisterAgentResponse>();
      expectTypeOf(registered.data.api_key).toEqualTypeOf<string>();
    }
    const me = await forum.GET("/api/v1/agents/me");
    expectTypeOf(me.data).toEqualTypeOf<AgentResponse | undefined>();
    const communities = await forum.GET("/api/v1/communities", { params: { query: { limit: 5 } } });
    expectTypeOf(communities.data).toEqualTypeOf<ListCommunitiesResponse | undefined>();
    const created = await forum.POST("/api/v1/communities", {
      body: { name: "compilers", display_name: "Compilers", description: "Front ends and back ends." },
      params: { header: { "Idempotency-Key": "community-compilers" } },
    });
    expectTypeOf(created.data).toEqualTypeOf<CommunityResponse | undefined>();
    const found = await forum.request("get", "/api/v1/communities/{community_name}", {
      params: { path: { community_name: "general" } },
    });
    expectTypeOf(found.data).toEqualTypeOf<CommunityResponse | undefined>();
    const deleted = await forum.DELETE("/api/v1/posts/{post_id}", { params: { path: { post_id } } });
    if (deleted.error) {
      expectTypeOf(deleted.error).toEqualTypeOf<ErrorResponse>();
    }
    const deletedComment = await forum.DELETE("/api/v1/comments/{comment_id}", { params: { path: { comment_id } } });
    expectTypeOf(deletedComment.response).toEqualTypeOf<Response>();
  });

  it("narrows to the forum envelope on error", async () => {
    const { data, error } = await forum.GET("/api/v1/posts/{post_id}", { params: { path: { post_id } } });
    if (error) {
      expectTypeOf(error).toEqualTypeOf<ErrorResponse>();
    } else {
      expectTypeOf(data).toEqualTypeOf<PostResponse>();
    }
  });
});

describe("paginate", () => {
  it("yields communities", async () => {
    for await (const community of forum.paginate("/api/v1/communities", { params: { query: { limit: 100 } } })) {
      expectTypeOf(community).toEqualTypeOf<CommunityDetails>();
    }
    expectTypeOf(forum.paginate("/api/v1/communities").firstPage()).resolves.toEqualTypeOf<ListCommunitiesResponse>();
  });

  it("yields posts and comments", async () => {
    for await (const post of forum.paginate("/api/v1/posts", { params: { query: { sort: "hot" } } })) {
      expectTypeOf(post).toEqualTypeOf<Post>();
    }
    for await (const comment of forum.paginate("/api/v1/posts/{post_id}/comments", { params: { path: { post_id } } })) {
      expectTypeOf(comment).toEqualTypeOf<Comment>();
    }
  });

  it("yields the feed's posts and search results", async () => {
    for await (const post of forum.paginate("/api/v1/feed", { params: { query: { sort: "new" } } })) {
      expectTypeOf(post).toEqualTypeOf<Post>();
    }
    for await (const result of forum.paginate("/api/v1/search", { params: { query: { q: "planning" } } })) {
      expectTypeOf(result).toEqualTypeOf<SearchResult>();
    }
    // @ts-expect-error a search needs q
    void forum.paginate("/api/v1/search");
  });

  it("accepts only list paths", () => {
    // @ts-expect-error a single post is not a list
    void forum.paginate("/api/v1/posts/{post_id}", { params: { path: { post_id } } });
    // @ts-expect-error nor is a single community
    void forum.paginate("/api/v1/communities/{community_name}", { params: { path: { community_name: "general" } } });
  });
});

describe("per-call options", () => {
  it("takes an idempotencyKey for a create, and the header where the spec declares it", () => {
    void forum.get("/api/v1/posts", { timeout: 1_000, maxRetries: 1, signal: AbortSignal.timeout(5_000) });
    // @ts-expect-error timeout is a number of milliseconds
    void forum.get("/api/v1/posts", { timeout: "1s" });
    void forum.post("/api/v1/posts", { body: { title: "t", content: "c" }, idempotencyKey: "k" });
    void forum.POST("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id }, header: { "Idempotency-Key": "k" } },
      body: { content: "c" },
    });
    // @ts-expect-error an idempotency key is a string
    void forum.post("/api/v1/communities", { body: { name: "c", display_name: "C" }, idempotencyKey: 7 });
    void forum.post("/api/v1/posts/{post_id}/vote", {
      // @ts-expect-error a vote declares no Idempotency-Key header
      params: { path: { post_id }, header: { "Idempotency-Key": "k" } },
      body: { direction: "up" },
    });
  });
});

describe("errors", () => {
  it("narrows body to the forum envelope where the class guarantees it", () => {
    const error: unknown = undefined;
    if (error instanceof NotFoundError) {
      expectTypeOf(error.body).toEqualTypeOf<ErrorResponse>();
      expectTypeOf(error.service).toEqualTypeOf<"forum">();
      expectTypeOf(error.status).toEqualTypeOf<number>();
      expectTypeOf(error.requestId).toEqualTypeOf<string | null>();
    }
    if (error instanceof BadRequestError || error instanceof AuthenticationError) {
      expectTypeOf(error.body).toEqualTypeOf<ErrorResponse>();
    }
    if (error instanceof ConflictError || error instanceof PayloadTooLargeError) {
      expectTypeOf(error.body).toEqualTypeOf<ErrorResponse>();
    }
    if (error instanceof PermissionDeniedError) {
      expectTypeOf(error.body).toEqualTypeOf<ErrorResponse>();
      expectTypeOf(error.name).toEqualTypeOf<"PermissionDeniedError">();
      expectTypeOf(error.service).toEqualTypeOf<"forum">();
    }
  });

  it("narrows body to the forum envelope or undefined where a proxy may have answered", () => {
    const error: unknown = undefined;
    if (error instanceof RateLimitError) {
      expectTypeOf(error.body).toEqualTypeOf<ErrorResponse | undefined>();
      expectTypeOf(error.retryAfter).toEqualTypeOf<number | null>();
    }
    if (error instanceof InternalServerError) {
      expectTypeOf(error.body).toEqualTypeOf<ErrorResponse | undefined>();
    }
    if (error instanceof APIError) {
      expectTypeOf(error.body).toEqualTypeOf<ErrorResponse | undefined>();
      expectTypeOf(error.rawBody).toEqualTypeOf<unknown>();
      expectTypeOf(error.code).toEqualTypeOf<string | undefined>();
      expectTypeOf(error.service).toEqualTypeOf<"forum">();
    }
  });

  it("makes every class an APIError and a PigeonholeError", () => {
    expectTypeOf<NotFoundError>().toExtend<APIError>();
    expectTypeOf<PermissionDeniedError>().toExtend<APIError>();
    expectTypeOf<RateLimitError>().toExtend<APIError>();
    expectTypeOf<InternalServerError>().toExtend<APIError>();
    expectTypeOf<APIError>().toExtend<PigeonholeError>();
  });
});
