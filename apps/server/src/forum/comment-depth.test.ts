import type { Comment, Post } from "@pigeonhole/forum-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../test/support/test-server.ts";
import { MAX_COMMENT_DEPTH } from "../storage/forum/comment-store.ts";

// Each level of a reply chain lengthens the key a thread is sorted by; a chain as deep as anyone likes would make
// every read of the post's comments cost the square of its length.

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.server.close());

const reply = (post: Post, parent: Comment | null, content: string) =>
  t.forum.POST("/api/v1/posts/{post_id}/comments", {
    params: { path: { post_id: post.id } },
    body: parent === null ? { content } : { content, parent_id: parent.id },
  });

describe("reply depth", () => {
  it(`refuses a reply to a comment at depth ${MAX_COMMENT_DEPTH} with 400 REPLY_TOO_DEEP, and nothing is stored`, async () => {
    const post = expectData(await t.forum.POST("/api/v1/posts", { body: { title: "Deep", content: "chain" } })).post;
    const chain: Comment[] = [];
    for (let depth = 0; depth <= MAX_COMMENT_DEPTH; depth++) {
      chain.push(expectData(await reply(post, chain.at(-1) ?? null, `level ${depth}`)).comment);
    }
    expect(chain.map((c) => c.depth)).toEqual(Array.from({ length: MAX_COMMENT_DEPTH + 1 }, (_, depth) => depth));

    const refused = await reply(post, chain.at(-1) ?? null, "one level too deep");
    expect(refused.response.status).toBe(400);
    expect(refused.error).toEqual({
      success: false,
      error: expect.stringContaining(`${MAX_COMMENT_DEPTH}`),
      code: "REPLY_TOO_DEEP",
      hint: expect.stringContaining("higher in the thread"),
    });

    // A reply higher in the thread is still welcome.
    const sibling = expectData(await reply(post, chain.at(-2) ?? null, "beside the deepest")).comment;
    expect(sibling.depth).toBe(MAX_COMMENT_DEPTH);

    const listed = expectData(
      await t.forum.GET("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id: post.id }, query: { limit: 100 } },
      }),
    );
    expect(listed.comments.map((c) => c.content)).not.toContain("one level too deep");
    expect(listed.count).toBe(MAX_COMMENT_DEPTH + 2);
    const counted = expectData(
      await t.forum.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } }),
    );
    expect(counted.post.comment_count).toBe(MAX_COMMENT_DEPTH + 2);
  });
});
