import { fakeFetch } from "@pigeonhole/fake-fetch";
import { afterEach, describe, expect, it, vi } from "vitest";
import { forumError } from "../test/error-response.js";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  BadRequestError,
  createForumClient,
  type ForumClientOptions,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  type Post,
  RateLimitError,
} from "./index.js";

const post_id = "6d1f4a52-9b7e-4c3a-8e21-5f0b7c9d2a14";

const client = (fetch: ForumClientOptions["fetch"], options: ForumClientOptions = {}) =>
  createForumClient({ apiKey: "fk_test", fetch, ...options });

const postRecord = (n: number): Post => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  title: `Post ${n}`,
  content: "…",
  url: null,
  upvotes: n,
  downvotes: 0,
  comment_count: 0,
  created_at: "2026-11-22T09:30:00.000Z",
  author: { id: "7a2c9e10-3b4d-4f6a-8c1e-2d5f7b9a0c3e", name: "ada" },
  community: { id: "00000000-0000-4000-8000-000000000001", name: "general", display_name: "General" },
});

const voted = { success: true, post_id, vote: "up", upvotes: 1, downvotes: 0, action: "upvoted" };

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("createForumClient", () => {
  it("reads PIGEONHOLE_FORUM_API_KEY and PIGEONHOLE_FORUM_BASE_URL", async () => {
    vi.stubEnv("PIGEONHOLE_FORUM_API_KEY", "fk_env");
    vi.stubEnv("PIGEONHOLE_FORUM_BASE_URL", "http://127.0.0.1:5556");
    const { fetch, requests } = fakeFetch();
    await createForumClient({ fetch }).get("/api/v1/posts");
    expect(requests[0]?.url.href).toBe("http://127.0.0.1:5556/api/v1/posts");
    expect(requests[0]?.headers.get("authorization")).toBe("Bearer fk_env");
  });

  it("talks to the server running locally by default", async () => {
    vi.stubEnv("PIGEONHOLE_FORUM_BASE_URL", "");
    const { fetch, requests } = fakeFetch();
    await client(fetch).get("/api/v1/posts");
    expect(requests[0]?.url.origin).toBe("http://127.0.0.1:4020");
  });

  it("fails at construction without a key, naming the variable", () => {
    vi.stubEnv("PIGEONHOLE_FORUM_API_KEY", "");
    expect(() => createForumClient()).toThrow(
      "Missing API key: pass { apiKey } to createForumClient() or set the PIGEONHOLE_FORUM_API_KEY environment variable.",
    );
  });
});

describe("calls", () => {
  it("creates a post and reads the 201 body", async () => {
    const created = { success: true, post: postRecord(1) };
    const { fetch, requests } = fakeFetch([Response.json(created, { status: 201 })]);
    const body = { title: "Hello", content: "First post" };
    await expect(client(fetch).post("/api/v1/posts", { body })).resolves.toEqual(created);
    expect(requests[0]).toMatchObject({ method: "POST", body: JSON.stringify(body) });
  });

  it("sends the sort, limit and offset query", async () => {
    const { fetch, requests } = fakeFetch();
    await client(fetch).get("/api/v1/posts", { params: { query: { sort: "new", limit: 10, offset: 20 } } });
    expect(requests[0]?.url.search).toBe("?sort=new&limit=10&offset=20");
  });

  it("sends no Idempotency-Key, which the service does not know", async () => {
    const { fetch, requests } = fakeFetch([Response.json(voted)]);
    await client(fetch).post("/api/v1/posts/{post_id}/vote", {
      params: { path: { post_id } },
      body: { direction: "up" },
    });
    expect(requests[0]?.headers.has("idempotency-key")).toBe(false);
  });
});

describe("a fetch given to one call", () => {
  it("gets the client's retries: 503, 503, then the answer", async () => {
    const unused = fakeFetch();
    const own = fakeFetch([
      503,
      503,
      Response.json({ success: true, posts: [], count: 0, has_more: false, next_offset: 0 }),
    ]);
    await expect(client(unused.fetch).get("/api/v1/posts", { fetch: own.fetch })).resolves.toMatchObject({ count: 0 });
    expect(own.requests).toHaveLength(3);
    expect(unused.requests).toEqual([]);
  });
});

describe("retries of writes the service cannot deduplicate", () => {
  const vote = (forum: ReturnType<typeof client>) =>
    forum.post("/api/v1/posts/{post_id}/vote", { params: { path: { post_id } }, body: { direction: "up" } });

  it("never repeats a vote after a 500, which would toggle it back", async () => {
    const { fetch, requests } = fakeFetch([forumError(500, "INTERNAL_ERROR", "boom")]);
    await expect(vote(client(fetch))).rejects.toBeInstanceOf(InternalServerError);
    expect(requests).toHaveLength(1);
  });

  it("never repeats a vote whose answer timed out", async () => {
    const { fetch, requests } = fakeFetch(["hang"]);
    await expect(vote(client(fetch, { timeout: 10 }))).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    expect(requests).toHaveLength(1);
  });

  it("repeats a vote the server rate-limited, since it was not applied", async () => {
    const { fetch, requests } = fakeFetch([forumError(429, "RATE_LIMITED", "slow down"), Response.json(voted)]);
    await expect(vote(client(fetch))).resolves.toEqual(voted);
    expect(requests).toHaveLength(2);
  });

  it("repeats a write whose connection was refused", async () => {
    const refused = new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
    const { fetch, requests } = fakeFetch([refused, Response.json(voted)]);
    await expect(vote(client(fetch))).resolves.toEqual(voted);
    expect(requests).toHaveLength(2);
  });

  it("still retries reads on a 500 and on a timeout", async () => {
    const { fetch, requests } = fakeFetch([forumError(500, "INTERNAL_ERROR", "boom"), "hang"]);
    await expect(client(fetch, { timeout: 10 }).get("/api/v1/posts")).resolves.toEqual({});
    expect(requests).toHaveLength(3);
  });
});

describe("errors", () => {
  const cases = [
    [400, "INVALID_VALUE", BadRequestError],
    [401, "INVALID_API_KEY", AuthenticationError],
    [404, "NOT_FOUND", NotFoundError],
    [413, "PAYLOAD_TOO_LARGE", PayloadTooLargeError],
    [429, "RATE_LIMITED", RateLimitError],
    [500, "INTERNAL_ERROR", InternalServerError],
  ] as const;

  it.each(cases)("throws the class of a %i with the forum envelope", async (status, code, ErrorClass) => {
    const { fetch } = fakeFetch([], () => forumError(status, code, "It went wrong"));
    const error = await client(fetch, { maxRetries: 0 })
      .get("/api/v1/posts/{post_id}", { params: { path: { post_id } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    if (!(error instanceof APIError)) {
      throw new Error("expected an APIError");
    }
    expect(error.body).toEqual({ success: false, error: "It went wrong", code, hint: "See the API reference." });
    expect(error.body?.code).toBe(code);
    expect(error.code).toBe(code);
    expect(error.message).toBe(
      `${status} ${code}: It went wrong (hint: See the API reference.) (request req_${status})`,
    );
  });

  it("returns the typed envelope as `error` in the result style", async () => {
    const { fetch } = fakeFetch([forumError(404, "NOT_FOUND", "No such post")]);
    const { error } = await client(fetch).GET("/api/v1/posts/{post_id}", { params: { path: { post_id } } });
    expect(error?.code).toBe("NOT_FOUND");
    expect(error?.success).toBe(false);
  });

  it("throws APIConnectionError when the network fails", async () => {
    const { fetch } = fakeFetch([], new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }));
    await expect(client(fetch, { maxRetries: 0 }).get("/api/v1/posts")).rejects.toBeInstanceOf(APIConnectionError);
  });
});

describe("pagination", () => {
  /** 5 posts served by offset, as the service pages them. */
  function pagedPosts() {
    const all = Array.from({ length: 5 }, (_, i) => postRecord(i + 1));
    return fakeFetch([], (request) => {
      const url = new URL(request.url);
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const limit = Number(url.searchParams.get("limit") ?? 25);
      const posts = all.slice(offset, offset + limit);
      return Response.json({
        success: true,
        posts,
        count: posts.length,
        has_more: offset + limit < all.length,
        next_offset: offset + posts.length,
      });
    });
  }

  it("iterates every post across offset pages", async () => {
    const { fetch, requests } = pagedPosts();
    const titles: string[] = [];
    for await (const post of client(fetch).paginate("/api/v1/posts", {
      params: { query: { sort: "new", limit: 2 } },
    })) {
      titles.push(post.title);
    }
    expect(titles).toEqual(["Post 1", "Post 2", "Post 3", "Post 4", "Post 5"]);
    expect(requests.map((r) => r.url.search)).toEqual([
      "?sort=new&limit=2",
      "?sort=new&limit=2&offset=2",
      "?sort=new&limit=2&offset=4",
    ]);
  });

  it("pages by hand with the result style", async () => {
    const { fetch } = pagedPosts();
    const forum = client(fetch);
    const titles: string[] = [];
    let offset = 0;
    for (;;) {
      const { data, error } = await forum.GET("/api/v1/posts", { params: { query: { limit: 2, offset } } });
      if (error) {
        throw new Error(error.error);
      }
      titles.push(...data.posts.map((p) => p.title));
      if (!data.has_more) {
        break;
      }
      offset = data.next_offset;
    }
    expect(titles).toHaveLength(5);
  });

  it("starts from the offset given and stops at has_more false", async () => {
    const { fetch, requests } = pagedPosts();
    const posts = await client(fetch)
      .paginate("/api/v1/posts", { params: { query: { limit: 2, offset: 3 } } })
      .toArray();
    expect(posts.map((p) => p.title)).toEqual(["Post 4", "Post 5"]);
    expect(requests).toHaveLength(1);
  });

  it("pages the comments of a post", async () => {
    const comment = (id: string) => ({ id, post_id, parent_id: null, content: "hi", upvotes: 0, downvotes: 0 });
    const { fetch, requests } = fakeFetch([
      Response.json({ success: true, comments: [comment("c1")], count: 1, has_more: true, next_offset: 1 }),
      Response.json({ success: true, comments: [comment("c2")], count: 1, has_more: false, next_offset: 2 }),
    ]);
    const ids = [];
    for await (const c of client(fetch).paginate("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id }, query: { limit: 1 } },
    })) {
      ids.push(c.id);
    }
    expect(ids).toEqual(["c1", "c2"]);
    expect(requests[1]?.url.pathname).toBe(`/api/v1/posts/${post_id}/comments`);
    expect(requests[1]?.url.search).toBe("?limit=1&offset=1");
  });
});
