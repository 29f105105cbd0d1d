import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ForumClient, TestServer } from "../../test/support/test-server.ts";
import { expectData, ManualClock, startTestServer } from "../../test/support/test-server.ts";

let t: TestServer;
const clock = new ManualClock();
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.server.close());

/** A word no other test uses, so each test searches only its own posts. */
const uniqueWord = () => `zq${Math.random().toString(36).slice(2, 10)}`;

const createPost = async (client: ForumClient, title: string, content: string) => {
  clock.advance(1000);
  return expectData(await client.POST("/api/v1/posts", { body: { title, content } })).post;
};

const comment = async (client: ForumClient, postId: string, content: string) => {
  clock.advance(1000);
  return expectData(
    await client.POST("/api/v1/posts/{post_id}/comments", { params: { path: { post_id: postId } }, body: { content } }),
  ).comment;
};

const search = async (client: ForumClient, q: string, type?: "posts" | "comments" | "all", offset?: number) =>
  expectData(await client.GET("/api/v1/search", { params: { query: { q, type, offset, limit: 10 } } }));

describe("search", () => {
  it("finds posts by title and text and comments by text, typed, ranked with title matches first", async () => {
    const word = uniqueWord();
    const author = await t.newForumAgent();
    const reader = await t.newForumAgent();
    const inTitle = await createPost(author, `Planning with ${word}`, "Nothing else here.");
    const inText = await createPost(author, "Another post", `Some text mentioning ${word} once.`);
    const reply = await comment(reader, inText.id, `A comment about ${word.toUpperCase()} planning.`);
    await createPost(author, "Unrelated", "Nothing to see.");

    const all = await search(reader, word);
    expect(all.count).toBe(3);
    expect(all.results[0]).toMatchObject({ type: "post", id: inTitle.id, post_id: inTitle.id, title: inTitle.title });
    expect(all.results.map((r) => r.id).sort()).toEqual([inTitle.id, inText.id, reply.id].sort());
    const found = all.results.find((r) => r.id === reply.id);
    expect(found).toMatchObject({
      type: "comment",
      post_id: inText.id,
      title: null,
      community: { name: "general" },
      upvotes: 0,
      downvotes: 0,
      created_at: reply.created_at,
    });
    // Relevance: 2 when every word is in the title, else 1; ties newest first.
    expect(all.results.map((r) => [r.id, r.relevance])).toEqual([
      [inTitle.id, 2],
      [reply.id, 1],
      [inText.id, 1],
    ]);

    expect((await search(reader, word, "posts")).results.map((r) => r.type)).toEqual(["post", "post"]);
    expect((await search(reader, word, "comments")).results.map((r) => r.id)).toEqual([reply.id]);
    // Every word must match; a word matches the words it starts.
    expect((await search(reader, `${word} planning`)).results.map((r) => r.id).sort()).toEqual(
      [inTitle.id, reply.id].sort(),
    );
    expect((await search(reader, `${word.slice(0, 6)} plann`)).count).toBeGreaterThanOrEqual(2);
  });

  it("never finds deleted posts or deleted comments, nor the comments of a deleted post", async () => {
    const word = uniqueWord();
    const author = await t.newForumAgent();
    const kept = await createPost(author, `Kept ${word}`, "stays");
    const gone = await createPost(author, `Gone ${word}`, "goes");
    const onGone = await comment(author, gone.id, `On the gone post ${word}`);
    const deletedComment = await comment(author, kept.id, `Deleted comment ${word}`);
    expect((await search(author, word)).count).toBe(4);

    expect(
      (await author.DELETE("/api/v1/posts/{post_id}", { params: { path: { post_id: gone.id } } })).response.status,
    ).toBe(204);
    expect(
      (await author.DELETE("/api/v1/comments/{comment_id}", { params: { path: { comment_id: deletedComment.id } } }))
        .response.status,
    ).toBe(204);
    const after = await search(author, word);
    expect(after.results.map((r) => r.id)).toEqual([kept.id]);
    expect(after.results.map((r) => r.id)).not.toContain(onGone.id);
    expect((await search(author, "deleted", "comments")).results.map((r) => r.id)).not.toContain(deletedComment.id);
  });

  it("pages deterministically with offset and cuts long texts to an excerpt", async () => {
    const word = uniqueWord();
    const author = await t.newForumAgent();
    for (let i = 0; i < 5; i += 1) {
      await createPost(author, `Same ${word}`, `${word} ${"long text ".repeat(100)}`);
    }
    const seen: string[] = [];
    let offset = 0;
    for (;;) {
      const page = expectData(await author.GET("/api/v1/search", { params: { query: { q: word, limit: 2, offset } } }));
      seen.push(...page.results.map((r) => r.id));
      expect(page.results.every((r) => [...r.content].length <= 300 && r.content.endsWith("..."))).toBe(true);
      if (!page.has_more) {
        break;
      }
      offset = page.next_offset;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
  });

  it("answers 400 for a missing, empty, wordless or too long q, and for an offset past 999", async () => {
    const client = await t.newForumAgent();
    const status = async (query: Record<string, string>) => {
      const answer = await client.GET("/api/v1/search", { params: { query: query as { q: string } } });
      if (answer.response.status === 400) {
        expect(answer.error).toMatchObject({ success: false, code: "VALIDATION_ERROR" });
      }
      return answer.response.status;
    };
    expect(await status({})).toBe(400);
    expect(await status({ q: "" })).toBe(400);
    expect(await status({ q: " !?* \"' " })).toBe(400);
    expect(await status({ q: "x".repeat(201) })).toBe(400);
    expect(await status({ q: "ok", offset: "1000" })).toBe(400);
    expect(await status({ q: "ok", type: "users" })).toBe(400);
    // Query syntax of either database is only text here: quotes, operators and parentheses find nothing, safely.
    expect(await status({ q: 'a" OR b NEAR(c) & !d | e:* (f' })).toBe(200);
  });
});
