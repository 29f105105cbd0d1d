import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ForumClient, TestServer } from "../../test/support/test-server.ts";
import { expectData, ManualClock, startTestServer } from "../../test/support/test-server.ts";

let t: TestServer;
const clock = new ManualClock();
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.server.close());

const MISSING_UUID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const DAY_MS = 24 * 60 * 60 * 1000;

const keyed = (key: string) => ({ header: { "Idempotency-Key": key } });

const createPost = (
  client: ForumClient,
  key: string,
  body: { title: string; content: string; community_id?: string },
) => client.POST("/api/v1/posts", { params: keyed(key), body });

/** Posts of the whole forum with this title: how many times a write really happened. */
const postsTitled = async (client: ForumClient, title: string) =>
  expectData(await client.GET("/api/v1/posts", { params: { query: { sort: "new", limit: 100 } } })).posts.filter(
    (post) => post.title === title,
  );

const expectKeyReused = (answer: { response: Response; error?: { code?: string } }) => {
  expect(answer.response.status).toBe(409);
  expect(answer.error).toMatchObject({ success: false, code: "IDEMPOTENCY_KEY_REUSED", hint: expect.any(String) });
};

describe("Idempotency-Key on forum writes", () => {
  it("answers a repeated post with the original answer and writes it once; another body is a 409", async () => {
    const agent = await t.newForumAgent();
    const body = { title: "Once only", content: "However often it is sent." };
    const first = await createPost(agent, "post-1", body);
    expect(first.response.status).toBe(201);
    clock.advance(60_000);
    const repeat = await createPost(agent, "post-1", body);
    expect(repeat.response.status).toBe(201);
    expect(repeat.data).toEqual(first.data);
    // Key order in the body does not make it another request.
    const reordered = await createPost(agent, "post-1", { content: body.content, title: body.title });
    expect(reordered.data).toEqual(first.data);
    expect(await postsTitled(agent, "Once only")).toHaveLength(1);

    expectKeyReused(await createPost(agent, "post-1", { ...body, content: "Changed my mind." }));
    expect(await postsTitled(agent, "Once only")).toHaveLength(1);
    // Without a key every request writes.
    expectData(await agent.POST("/api/v1/posts", { body }));
    expect(await postsTitled(agent, "Once only")).toHaveLength(2);
  });

  it("keeps keys per API key: another agent's same key and body is its own write", async () => {
    const [one, two] = [await t.newForumAgent(), await t.newForumAgent()];
    const body = { title: "Same key, two agents", content: "Two posts." };
    const mine = expectData(await createPost(one, "shared-key", body)).post;
    const theirs = expectData(await createPost(two, "shared-key", body)).post;
    expect(theirs.id).not.toBe(mine.id);
    expect(theirs.author.id).not.toBe(mine.author.id);
    expect(await postsTitled(one, body.title)).toHaveLength(2);
  });

  it("answers a repeated comment with the original comment, counted once; another post or body is a 409", async () => {
    const author = await t.newForumAgent();
    const commenter = await t.newForumAgent();
    const post = expectData(await createPost(author, "thread", { title: "Thread", content: "Comment twice." })).post;
    const other = expectData(await createPost(author, "other-thread", { title: "Other", content: "Elsewhere." })).post;
    const comment = (postId: string, content: string) =>
      commenter.POST("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id: postId }, ...keyed("comment-1") },
        body: { content },
      });
    const first = await comment(post.id, "Only once.");
    expect(first.response.status).toBe(201);
    const repeat = await comment(post.id, "Only once.");
    expect(repeat.response.status).toBe(201);
    expect(repeat.data).toEqual(first.data);
    expectKeyReused(await comment(post.id, "Something else."));
    expectKeyReused(await comment(other.id, "Only once."));

    const path = { params: { path: { post_id: post.id } } };
    expect(expectData(await commenter.GET("/api/v1/posts/{post_id}", path)).post.comment_count).toBe(1);
    expect(expectData(await commenter.GET("/api/v1/posts/{post_id}/comments", path)).comments).toEqual([
      first.data?.comment,
    ]);
    const otherPath = { params: { path: { post_id: other.id } } };
    expect(expectData(await commenter.GET("/api/v1/posts/{post_id}", otherPath)).post.comment_count).toBe(0);
  });

  it("answers a repeated community with the original community rather than NAME_TAKEN; another body is a 409", async () => {
    const agent = await t.newForumAgent();
    const create = (body: { name: string; display_name: string }) =>
      agent.POST("/api/v1/communities", { params: keyed("community-1"), body });
    const first = await create({ name: "once", display_name: "Once" });
    expect(first.response.status).toBe(201);
    const repeat = await create({ name: "once", display_name: "Once" });
    expect(repeat.response.status).toBe(201);
    expect(repeat.data).toEqual(first.data);
    expectKeyReused(await create({ name: "twice", display_name: "Twice" }));
    const twice = await agent.GET("/api/v1/communities/{community_name}", {
      params: { path: { community_name: "twice" } },
    });
    expect(twice.response.status).toBe(404);
    // The key now names that community: a post under it is another request.
    expectKeyReused(await createPost(agent, "community-1", { title: "t", content: "c" }));
  });

  it("keeps no key for a write that failed, so its retry with the same key writes", async () => {
    const agent = await t.newForumAgent();
    const unknownCommunity = await createPost(agent, "retry-1", {
      title: "Retried",
      content: "c",
      community_id: MISSING_UUID,
    });
    expect(unknownCommunity.response.status).toBe(404);
    const retried = await createPost(agent, "retry-1", { title: "Retried", content: "c" });
    expect(retried.response.status).toBe(201);

    const taken = await agent.POST("/api/v1/communities", {
      params: keyed("retry-2"),
      body: { name: "general", display_name: "Mine" },
    });
    expect(taken.response.status).toBe(409);
    expect(taken.error?.code).toBe("NAME_TAKEN");
    const renamed = await agent.POST("/api/v1/communities", {
      params: keyed("retry-2"),
      body: { name: "not-general", display_name: "Mine" },
    });
    expect(renamed.response.status).toBe(201);
  });

  it("keeps a key for 24 hours, after which it may name another write", async () => {
    const agent = await t.newForumAgent();
    const first = expectData(await createPost(agent, "daily", { title: "Day one", content: "c" })).post;
    clock.advance(DAY_MS - 1);
    expectKeyReused(await createPost(agent, "daily", { title: "Day two", content: "c" }));
    expect(expectData(await createPost(agent, "daily", { title: "Day one", content: "c" })).post.id).toBe(first.id);
    clock.advance(2);
    const later = await createPost(agent, "daily", { title: "Day two", content: "c" });
    expect(later.response.status).toBe(201);
    expect(later.data?.post.id).not.toBe(first.id);
  });

  it("answers concurrent repeats of one write with one post", async () => {
    const agent = await t.newForumAgent();
    const body = { title: "Raced", content: "Sent ten times at once." };
    const answers = await Promise.all(Array.from({ length: 10 }, () => createPost(agent, "raced", body)));
    expect(answers.map((answer) => answer.response.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((answer) => answer.data?.post.id)).size).toBe(1);
    expect(await postsTitled(agent, "Raced")).toHaveLength(1);
  });

  it("refuses keys outside 1 to 256 of A-Z a-z 0-9 . _ ~ - with 400", async () => {
    const agent = await t.newForumAgent();
    for (const key of ["has space", "x".repeat(257), "slash/key"]) {
      const { response, error } = await createPost(agent, key, { title: "Bad key", content: "c" });
      expect(response.status, key).toBe(400);
      expect(error?.code).toBe("VALIDATION_ERROR");
    }
    expect(await postsTitled(agent, "Bad key")).toHaveLength(0);
  });
});
