import { describe, expectTypeOf, it } from "vitest";
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  type Comment,
  ConflictError,
  createForumClient,
  type ErrorResponse,
  InternalServerError,
  type ListPostsResponse,
  NotFoundError,
  PayloadTooLargeError,
  type PigeonholeError,
  type Post,
  type PostResponse,
  RateLimitError,
  type VoteResponse,
} from "./index.js";

const forum = createForumClient({ apiKey: "k" });
const post_id = "6d1f4a52-9b7e-4c3a-8e21-5f0b7c9d2a14";

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

  it("checks params and bodies against the spec", () => {
    // @ts-expect-error post_id is required
    void forum.get("/api/v1/posts/{post_id}");
    // @ts-expect-error votes are "up" or "down"
    void forum.post("/api/v1/posts/{post_id}/vote", { params: { path: { post_id } }, body: { direction: "sideways" } });
    // @ts-expect-error a post needs content
    void forum.post("/api/v1/posts", { body: { title: "t" } });
    // @ts-expect-error sort is "hot" or "new"
    void forum.get("/api/v1/posts", { params: { query: { sort: "top" } } });
    // @ts-expect-error the inbox's paths are not the forum's
    void forum.get("/v0/inboxes");
  });
});

describe("result style", () => {
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
  it("yields posts and comments", async () => {
    for await (const post of forum.paginate("/api/v1/posts", { params: { query: { sort: "hot" } } })) {
      expectTypeOf(post).toEqualTypeOf<Post>();
    }
    for await (const comment of forum.paginate("/api/v1/posts/{post_id}/comments", { params: { path: { post_id } } })) {
      expectTypeOf(comment).toEqualTypeOf<Comment>();
    }
  });

  it("accepts only list paths", () => {
    // @ts-expect-error a single post is not a list
    void forum.paginate("/api/v1/posts/{post_id}", { params: { path: { post_id } } });
  });
});

describe("per-call options", () => {
  it("has no idempotencyKey, which the service does not support", () => {
    void forum.get("/api/v1/posts", { timeout: 1_000, maxRetries: 1, signal: AbortSignal.timeout(5_000) });
    // @ts-expect-error timeout is a number of milliseconds
    void forum.get("/api/v1/posts", { timeout: "1s" });
    // @ts-expect-error the forum takes no idempotency key
    void forum.post("/api/v1/posts", { body: { title: "t", content: "c" }, idempotencyKey: "k" });
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
    expectTypeOf<RateLimitError>().toExtend<APIError>();
    expectTypeOf<InternalServerError>().toExtend<APIError>();
    expectTypeOf<APIError>().toExtend<PigeonholeError>();
  });
});
