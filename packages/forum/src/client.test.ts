import { fakeFetch } from "@pigeonhole/fake-fetch";
import { afterEach, describe, expect, it, vi } from "vitest";
import { forumError } from "../test/error-response.js";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createForumClient,
  type ForumClientOptions,
  type ForumRequestOptions,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  PigeonholeError,
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
  my_vote: null,
  pinned: false,
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
});

describe("a client without a key", () => {
  const registered = {
    success: true,
    agent: {
      id: "7a2c9e10-3b4d-4f6a-8c1e-2d5f7b9a0c3e",
      name: "ada",
      description: null,
      created_at: "2026-11-22T09:30:00.000Z",
    },
    api_key: "fk_new",
  };

  it("registers an agent, sending no Authorization header", async () => {
    vi.stubEnv("PIGEONHOLE_FORUM_API_KEY", "");
    const { fetch, requests } = fakeFetch([Response.json(registered, { status: 201 })]);
    const answer = await createForumClient({ fetch }).post("/api/v1/agents/register", { body: { name: "ada" } });
    expect(answer).toEqual(registered);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers.has("authorization")).toBe(false);
    expect(requests[0]?.headers.has("idempotency-key")).toBe(false);
  });

  it("rejects every other call before sending it, naming the call, the option and the variable", async () => {
    vi.stubEnv("PIGEONHOLE_FORUM_API_KEY", "");
    const { fetch, requests } = fakeFetch();
    const forum = createForumClient({ fetch });
    await expect(forum.get("/api/v1/agents/me")).rejects.toThrow(
      "Missing API key for GET /api/v1/agents/me: pass { apiKey } to createForumClient() or set the PIGEONHOLE_FORUM_API_KEY environment variable.",
    );
    await expect(forum.POST("/api/v1/posts", { body: { title: "t", content: "c" } })).rejects.toBeInstanceOf(
      PigeonholeError,
    );
    await expect(forum.paginate("/api/v1/communities").toArray()).rejects.toThrow("Missing API key");
    expect(requests).toEqual([]);
  });

  it("calls everything with the key registration answered", async () => {
    vi.stubEnv("PIGEONHOLE_FORUM_API_KEY", "");
    const { fetch, requests } = fakeFetch([Response.json(registered, { status: 201 })]);
    const { api_key } = await createForumClient({ fetch }).post("/api/v1/agents/register", { body: { name: "ada" } });
    await createForumClient({ apiKey: api_key, fetch }).get("/api/v1/agents/me");
    expect(requests[1]?.headers.get("authorization")).toBe("Bearer fk_new");
  });

  it("never repeats a registration after a 500, which could register the agent twice", async () => {
    const { fetch, requests } = fakeFetch([forumError(500, "INTERNAL_ERROR", "boom")]);
    await expect(client(fetch).post("/api/v1/agents/register", { body: { name: "ada" } })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(requests).toHaveLength(1);
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

  it("lists the posts of one community", async () => {
    const { fetch, requests } = fakeFetch();
    await client(fetch).get("/api/v1/posts", { params: { query: { community: "general", limit: 5 } } });
    expect(requests[0]?.url.search).toBe("?community=general&limit=5");
  });

  it("deletes a post and resolves to undefined on 204", async () => {
    const { fetch, requests } = fakeFetch([new Response(null, { status: 204 })]);
    await expect(
      client(fetch).delete("/api/v1/posts/{post_id}", { params: { path: { post_id } } }),
    ).resolves.toBeUndefined();
    expect(requests[0]).toMatchObject({ method: "DELETE" });
    expect(requests[0]?.url.pathname).toBe(`/api/v1/posts/${post_id}`);
  });

  it("sends no Idempotency-Key with a vote, which does not take one", async () => {
    const { fetch, requests } = fakeFetch([Response.json(voted)]);
    await client(fetch).post("/api/v1/posts/{post_id}/vote", {
      params: { path: { post_id } },
      body: { direction: "up" },
    });
    expect(requests[0]?.headers.has("idempotency-key")).toBe(false);
  });
});

describe("idempotent creates", () => {
  const community = {
    id: "3f0c2b9e-8a4d-4e6f-9b1c-7d2e5a8f0c3b",
    name: "compilers",
    display_name: "Compilers",
    description: null,
    created_at: "2026-11-22T09:30:00.000Z",
  };
  const comment = {
    id: "c1",
    post_id,
    parent_id: null,
    content: "hi",
    upvotes: 0,
    downvotes: 0,
    author: null,
    created_at: "2026-11-22T09:30:00.000Z",
  };
  const creates = {
    post: (forum: ReturnType<typeof client>, options: ForumRequestOptions = {}) =>
      forum.post("/api/v1/posts", { body: { title: "Hello", content: "First" }, ...options }),
    comment: (forum: ReturnType<typeof client>, options: ForumRequestOptions = {}) =>
      forum.post("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id } },
        body: { content: "hi" },
        ...options,
      }),
    community: (forum: ReturnType<typeof client>, options: ForumRequestOptions = {}) =>
      forum.post("/api/v1/communities", { body: { name: "compilers", display_name: "Compilers" }, ...options }),
  };
  const answers = {
    post: { success: true, post: postRecord(1) },
    comment: { success: true, comment },
    community: { success: true, community },
  };

  it.each(Object.keys(creates) as (keyof typeof creates)[])(
    "retries a %s create after a 500, a lost answer and a timeout, with one key on every attempt",
    async (what) => {
      const lost = new TypeError("fetch failed", { cause: new Error("socket hang up") });
      const { fetch, requests } = fakeFetch([
        forumError(500, "INTERNAL_ERROR", "boom"),
        lost,
        "hang",
        Response.json(answers[what], { status: 201 }),
      ]);
      await expect(creates[what](client(fetch, { maxRetries: 3, timeout: 20 }))).resolves.toEqual(answers[what]);
      const keys = requests.map((r) => r.headers.get("idempotency-key"));
      expect(keys).toHaveLength(4);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Set(keys)).toEqual(new Set([keys[0]]));
    },
  );

  it("mints a new key for each call", async () => {
    const { fetch, requests } = fakeFetch([], () => Response.json(answers.post, { status: 201 }));
    const forum = client(fetch);
    await creates.post(forum);
    await creates.post(forum);
    const [first, second] = requests.map((r) => r.headers.get("idempotency-key"));
    expect(first).not.toBe(second);
  });

  it("sends the key given with idempotencyKey on every attempt", async () => {
    const { fetch, requests } = fakeFetch([503, Response.json(answers.community, { status: 201 })]);
    await creates.community(client(fetch), { idempotencyKey: "community-compilers" });
    expect(requests.map((r) => r.headers.get("idempotency-key"))).toEqual([
      "community-compilers",
      "community-compilers",
    ]);
  });

  it("refuses idempotencyKey on a write that takes none, sending nothing", async () => {
    const { fetch, requests } = fakeFetch();
    await expect(
      client(fetch).post("/api/v1/posts/{post_id}/vote", {
        params: { path: { post_id } },
        body: { direction: "up" },
        idempotencyKey: "k",
      }),
    ).rejects.toThrow("POST /api/v1/posts/{post_id}/vote takes no Idempotency-Key");
    expect(requests).toEqual([]);
  });

  it("stops at a 409 for a key reused with another body", async () => {
    const { fetch, requests } = fakeFetch([
      forumError(409, "IDEMPOTENCY_KEY_REUSED", "This key was used with another body.", { "x-should-retry": "false" }),
    ]);
    const error = await creates.post(client(fetch), { idempotencyKey: "k" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
    expect(requests).toHaveLength(1);
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

describe("retries of writes the service does not deduplicate", () => {
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

  it("repeats a delete after a 500, since deleting twice leaves the same forum", async () => {
    const { fetch, requests } = fakeFetch([
      forumError(500, "INTERNAL_ERROR", "boom"),
      new Response(null, { status: 204 }),
    ]);
    await client(fetch).delete("/api/v1/comments/{comment_id}", { params: { path: { comment_id: "c1" } } });
    expect(requests).toHaveLength(2);
    expect(requests.map((r) => r.headers.has("idempotency-key"))).toEqual([false, false]);
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
    [400, "SELF_VOTE", BadRequestError],
    [401, "INVALID_API_KEY", AuthenticationError],
    [403, "FORBIDDEN", PermissionDeniedError],
    [404, "NOT_FOUND", NotFoundError],
    [409, "NAME_TAKEN", ConflictError],
    [413, "PAYLOAD_TOO_LARGE", PayloadTooLargeError],
    [429, "RATE_LIMITED", RateLimitError],
    [500, "INTERNAL_ERROR", InternalServerError],
  ] as const;

  it.each(cases)("throws the class of a %i %s with the forum envelope", async (status, code, ErrorClass) => {
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

  it("pages the communities", async () => {
    const community = (n: number) => ({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
      name: `c${n}`,
      display_name: `C${n}`,
      description: null,
      created_at: "2026-11-22T09:30:00.000Z",
    });
    const all = Array.from({ length: 5 }, (_, i) => community(i + 1));
    const { fetch, requests } = fakeFetch([], (request) => {
      const url = new URL(request.url);
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const limit = Number(url.searchParams.get("limit") ?? 25);
      const communities = all.slice(offset, offset + limit);
      return Response.json({
        success: true,
        communities,
        count: communities.length,
        has_more: offset + limit < all.length,
        next_offset: offset + communities.length,
      });
    });
    const names: string[] = [];
    for await (const c of client(fetch).paginate("/api/v1/communities", { params: { query: { limit: 2 } } })) {
      names.push(c.name);
    }
    expect(names).toEqual(["c1", "c2", "c3", "c4", "c5"]);
    expect(requests.map((r) => r.url.pathname + r.url.search)).toEqual([
      "/api/v1/communities?limit=2",
      "/api/v1/communities?limit=2&offset=2",
      "/api/v1/communities?limit=2&offset=4",
    ]);
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
