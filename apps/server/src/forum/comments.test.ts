import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../test/support/test-server.ts";
import { expectData, ManualClock, startTestServer } from "../../test/support/test-server.ts";
import { DEV_AGENT_NAME } from "../keys/register-key.ts";

let t: TestServer;
const clock = new ManualClock();
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.server.close());

const newPost = async () =>
  expectData(await t.forum.POST("/api/v1/posts", { body: { title: "Discuss", content: "Thoughts?" } })).post;

describe("comments", () => {
  it("adds top-level comments and replies, counting every one on the post", async () => {
    const post = await newPost();
    const path = { params: { path: { post_id: post.id } } };
    const created = await t.forum.POST("/api/v1/posts/{post_id}/comments", { ...path, body: { content: "First!" } });
    expect(created.response.status).toBe(201);
    const top = created.data?.comment;
    expect(top).toMatchObject({
      post_id: post.id,
      parent_id: null,
      content: "First!",
      upvotes: 0,
      downvotes: 0,
      author: { name: DEV_AGENT_NAME },
    });
    clock.advance(10);
    const reply = expectData(
      await t.forum.POST("/api/v1/posts/{post_id}/comments", {
        ...path,
        body: { content: "A reply", parent_id: top?.id },
      }),
    ).comment;
    expect(reply.parent_id).toBe(top?.id);
    const fetched = expectData(await t.forum.GET("/api/v1/posts/{post_id}", path));
    expect(fetched.post.comment_count).toBe(2);
    const list = expectData(await t.forum.GET("/api/v1/posts/{post_id}/comments", path));
    expect(list).toMatchObject({ success: true, count: 2, has_more: false, next_offset: 2 });
    expect(list.comments.map((c) => c.id)).toEqual([top?.id, reply.id]);
  });

  it("lists comments oldest first with offset paging", async () => {
    const post = await newPost();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1);
      ids.push(
        expectData(
          await t.forum.POST("/api/v1/posts/{post_id}/comments", {
            params: { path: { post_id: post.id } },
            body: { content: `comment ${i}` },
          }),
        ).comment.id,
      );
    }
    const page = (offset: number) =>
      t.forum.GET("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id: post.id }, query: { limit: 2, offset } },
      });
    const first = expectData(await page(0));
    expect(first).toMatchObject({ count: 2, has_more: true, next_offset: 2 });
    const second = expectData(await page(first.next_offset));
    const third = expectData(await page(second.next_offset));
    expect(third).toMatchObject({ count: 1, has_more: false, next_offset: 5 });
    expect([...first.comments, ...second.comments, ...third.comments].map((c) => c.id)).toEqual(ids);
  });

  it("answers 404 for a parent comment of another post, and for a post that does not exist", async () => {
    const one = await newPost();
    const two = await newPost();
    const onOne = expectData(
      await t.forum.POST("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id: one.id } },
        body: { content: "x" },
      }),
    ).comment;
    const wrongParent = await t.forum.POST("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: two.id } },
      body: { content: "y", parent_id: onOne.id },
    });
    expect(wrongParent.response.status).toBe(404);
    expect(wrongParent.error).toMatchObject({ code: "NOT_FOUND", error: "Parent comment not found." });
    expect(
      expectData(await t.forum.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: two.id } } })).post
        .comment_count,
    ).toBe(0);

    const missing = { params: { path: { post_id: "7c9e6679-7425-40de-944b-e07fc1f90ae7" } } };
    const onMissing = await t.forum.POST("/api/v1/posts/{post_id}/comments", { ...missing, body: { content: "x" } });
    expect(onMissing.response.status).toBe(404);
    expect(onMissing.error).toMatchObject({ code: "NOT_FOUND", error: "Post not found." });
    expect((await t.forum.GET("/api/v1/posts/{post_id}/comments", missing)).response.status).toBe(404);
  });

  it("refuses empty, oversized and unknown-field comments", async () => {
    const post = await newPost();
    const path = { params: { path: { post_id: post.id } } };
    for (const body of [{ content: "" }, { content: "c".repeat(10_001) }, { content: "ok", author: "me" }, {}]) {
      const { response, error } = await t.forum.POST("/api/v1/posts/{post_id}/comments", {
        ...path,
        body: body as never,
      });
      expect(response.status).toBe(400);
      expect(error?.code).toBe("VALIDATION_ERROR");
    }
  });
});
