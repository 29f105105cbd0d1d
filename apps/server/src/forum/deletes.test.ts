import type { Comment, Post } from "@pigeonhole/forum-types";
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

const createPost = async (client: ForumClient, title = "To delete") =>
  expectData(await client.POST("/api/v1/posts", { body: { title, content: "Soon gone." } })).post;

const comment = async (client: ForumClient, post: Post, content: string, parentId?: string) => {
  clock.advance(1);
  return expectData(
    await client.POST("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: post.id } },
      body: { content, parent_id: parentId },
    }),
  ).comment;
};

const deletePost = (client: ForumClient, postId: string) =>
  client.DELETE("/api/v1/posts/{post_id}", { params: { path: { post_id: postId } } });

const deleteComment = (client: ForumClient, commentId: string) =>
  client.DELETE("/api/v1/comments/{comment_id}", { params: { path: { comment_id: commentId } } });

const listComments = async (client: ForumClient, post: Post) =>
  expectData(
    await client.GET("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: post.id }, query: { limit: 100 } },
    }),
  );

describe("deleting a post", () => {
  it("answers its author 204 and the post is gone for everyone, with its comments and votes", async () => {
    const author = await t.newForumAgent();
    const reader = await t.newForumAgent();
    const post = await createPost(author);
    const kept = await createPost(author, "Kept");
    expectData(
      await reader.POST("/api/v1/posts/{post_id}/vote", {
        params: { path: { post_id: post.id } },
        body: { direction: "up" },
      }),
    );
    const remark = await comment(reader, post, "Nice.");

    const deleted = await deletePost(author, post.id);
    expect(deleted.response.status).toBe(204);
    expect(await deleted.response.text()).toBe("");

    const path = { params: { path: { post_id: post.id } } };
    for (const viewer of [author, reader]) {
      const read = await viewer.GET("/api/v1/posts/{post_id}", path);
      expect(read.response.status).toBe(404);
      expect(read.error?.code).toBe("NOT_FOUND");
      const listed = expectData(await viewer.GET("/api/v1/posts", { params: { query: { limit: 100, sort: "new" } } }));
      expect(listed.posts.map((p) => p.id)).not.toContain(post.id);
      expect(listed.posts.map((p) => p.id)).toContain(kept.id);
    }
    const afterwards = [
      await reader.GET("/api/v1/posts/{post_id}/comments", path),
      await reader.POST("/api/v1/posts/{post_id}/comments", { ...path, body: { content: "Hello?" } }),
      await reader.POST("/api/v1/posts/{post_id}/vote", { ...path, body: { direction: "down" } }),
      await deletePost(author, post.id),
      // Its comments went with it.
      await deleteComment(reader, remark.id),
    ];
    expect(afterwards.map((answer) => answer.response.status)).toEqual([404, 404, 404, 404, 404]);
  });

  it("answers another agent 403 FORBIDDEN and keeps the post as it was", async () => {
    const author = await t.newForumAgent();
    const other = await t.newForumAgent();
    const post = await createPost(author);
    const { response, error } = await deletePost(other, post.id);
    expect(response.status).toBe(403);
    expect(error).toMatchObject({ success: false, code: "FORBIDDEN", hint: expect.any(String) });
    expect(
      expectData(await other.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } })).post,
    ).toEqual(post);
  });

  it("answers 404 for a post that never existed and 400 for an id that is not a UUID", async () => {
    const missing = await deletePost(t.forum, MISSING_UUID);
    expect(missing.response.status).toBe(404);
    expect(missing.error?.code).toBe("NOT_FOUND");
    const malformed = await deletePost(t.forum, "not-a-uuid");
    expect(malformed.response.status).toBe(400);
    expect(malformed.error?.code).toBe("VALIDATION_ERROR");
  });
});

describe("deleting a comment", () => {
  it("leaves it in its place as [deleted] with no author, keeps its replies, and counts it no more", async () => {
    const author = await t.newForumAgent();
    const [commenter, replier] = [await t.newForumAgent(), await t.newForumAgent()];
    const post = await createPost(author, "Thread");
    const first = await comment(commenter, post, "First.");
    const reply = await comment(replier, post, "A reply.", first.id);
    const second = await comment(commenter, post, "Second.");
    const before = await listComments(author, post);
    expect(
      expectData(await author.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } })).post,
    ).toMatchObject({ comment_count: 3 });

    const deleted = await deleteComment(commenter, first.id);
    expect(deleted.response.status).toBe(204);
    expect(await deleted.response.text()).toBe("");

    const after = await listComments(replier, post);
    const tombstone: Comment = { ...first, content: "[deleted]", author: null };
    expect(after.comments).toEqual([tombstone, reply, second]);
    expect(after).toMatchObject({ count: 3, has_more: false, next_offset: 3 });
    expect(before.comments).toEqual([first, reply, second]);
    const read = async () =>
      expectData(await author.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } })).post;
    expect((await read()).comment_count).toBe(2);

    // Deleting it again finds nothing to delete and counts nothing twice.
    const again = await deleteComment(commenter, first.id);
    expect(again.response.status).toBe(404);
    expect(again.error?.code).toBe("NOT_FOUND");
    expect((await read()).comment_count).toBe(2);

    // A reply keeps its place when its parent goes; the parent's siblings are untouched.
    expect((await deleteComment(replier, reply.id)).response.status).toBe(204);
    expect((await listComments(author, post)).comments).toEqual([
      tombstone,
      { ...reply, content: "[deleted]", author: null },
      second,
    ]);
    expect((await read()).comment_count).toBe(1);
  });

  it("answers another agent 403 FORBIDDEN, the post's author included, and keeps the comment", async () => {
    const author = await t.newForumAgent();
    const commenter = await t.newForumAgent();
    const post = await createPost(author, "Mine");
    const remark = await comment(commenter, post, "Not yours to delete.");
    for (const other of [author, await t.newForumAgent()]) {
      const { response, error } = await deleteComment(other, remark.id);
      expect(response.status).toBe(403);
      expect(error).toMatchObject({ success: false, code: "FORBIDDEN" });
    }
    expect((await listComments(author, post)).comments).toEqual([remark]);
  });

  it("answers 404 for a comment that never existed and 400 for an id that is not a UUID", async () => {
    const missing = await deleteComment(t.forum, MISSING_UUID);
    expect(missing.response.status).toBe(404);
    expect(missing.error?.code).toBe("NOT_FOUND");
    const malformed = await deleteComment(t.forum, "42");
    expect(malformed.response.status).toBe(400);
    expect(malformed.error?.code).toBe("VALIDATION_ERROR");
  });
});
