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

type Sort = "top" | "new" | "controversial";

const newPost = async (): Promise<Post> =>
  expectData(await t.forum.POST("/api/v1/posts", { body: { title: "Threads", content: "Discuss" } })).post;

async function comment(post: Post, content: string, parent?: Comment): Promise<Comment> {
  clock.advance(1000);
  return expectData(
    await t.forum.POST("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: post.id } },
      body: parent === undefined ? { content } : { content, parent_id: parent.id },
    }),
  ).comment;
}

async function votes(target: Comment, voters: ForumClient[], ups: number, downs: number) {
  for (const [i, voter] of voters.slice(0, ups + downs).entries()) {
    const direction = i < ups ? "up" : "down";
    expectData(
      await voter.POST("/api/v1/comments/{comment_id}/vote", {
        params: { path: { comment_id: target.id } },
        body: { direction },
      }),
    );
  }
}

const page = async (post: Post, sort: Sort | undefined, limit: number, offset: number) =>
  expectData(
    await t.forum.GET("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: post.id }, query: { ...(sort ? { sort } : {}), limit, offset } },
    }),
  );

const contents = (comments: Comment[]) => comments.map((c) => c.content);

describe("threaded comment lists", () => {
  let post: Post;
  let voters: ForumClient[];

  beforeAll(async () => {
    voters = await Promise.all(Array.from({ length: 6 }, () => t.newForumAgent()));
    post = await newPost();
    // a (score 1: 3 up 2 down), b (score 3: 3 up), c (score 0: none); replies under a and b, one reply deeper.
    const a = await comment(post, "a");
    const b = await comment(post, "b");
    const c = await comment(post, "c");
    const a1 = await comment(post, "a1", a);
    const a2 = await comment(post, "a2", a);
    const a1x = await comment(post, "a1x", a1);
    const b1 = await comment(post, "b1", b);
    await votes(a, voters, 3, 2);
    await votes(b, voters, 3, 0);
    await votes(a2, voters, 1, 1);
    await votes(b1, voters, 0, 1);
    void a1x;
    void c;
  });

  it("defaults to top: each sibling group by score, then oldest, with replies right after their parent", async () => {
    const all = await page(post, undefined, 100, 0);
    // a1 and a2 both score 0 (a2 has one vote each way): the older, a1, comes first, followed by its reply.
    expect(contents(all.comments)).toEqual(["b", "b1", "a", "a1", "a1x", "a2", "c"]);
    expect(all.comments.map((c) => c.depth)).toEqual([0, 1, 0, 1, 2, 1, 0]);
    const byContent = new Map(all.comments.map((c) => [c.content, c]));
    expect(byContent.get("a1x")?.parent_id).toBe(byContent.get("a1")?.id);
    expect(byContent.get("a")?.parent_id).toBeNull();
    expect(byContent.get("a")).toMatchObject({ upvotes: 3, downvotes: 2 });
  });

  it("orders siblings newest first with sort=new", async () => {
    expect(contents((await page(post, "new", 100, 0)).comments)).toEqual(["c", "b", "b1", "a", "a2", "a1", "a1x"]);
  });

  it("puts evenly split comments first with sort=controversial", async () => {
    // a: (3+2)*2/3 = 3.33; a2: (1+1)*1/1 = 2; b and c have votes one way or none: 0, oldest first.
    expect(contents((await page(post, "controversial", 100, 0)).comments)).toEqual([
      "a",
      "a2",
      "a1",
      "a1x",
      "b",
      "b1",
      "c",
    ]);
  });

  it("pages through consecutive slices of the one threaded order", async () => {
    for (const sort of ["top", "new", "controversial"] as const) {
      const whole = contents((await page(post, sort, 100, 0)).comments);
      const read: string[] = [];
      for (let offset = 0; ; ) {
        const slice = await page(post, sort, 3, offset);
        read.push(...contents(slice.comments));
        expect(slice.next_offset).toBe(offset + slice.count);
        if (!slice.has_more) {
          break;
        }
        offset = slice.next_offset;
      }
      expect(read).toEqual(whole);
    }
  });

  it("keeps a deleted comment in its place with its replies", async () => {
    const thread = await newPost();
    const parent = await comment(thread, "parent");
    await comment(thread, "child", parent);
    await t.forum.DELETE("/api/v1/comments/{comment_id}", { params: { path: { comment_id: parent.id } } });
    const listed = (await page(thread, "top", 100, 0)).comments;
    expect(listed.map((c) => [c.content, c.depth])).toEqual([
      ["[deleted]", 0],
      ["child", 1],
    ]);
  });

  it("refuses an unknown sort and answers 404 for an unknown post", async () => {
    const bad = await t.forum.GET("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: post.id }, query: { sort: "best" as Sort } },
    });
    expect(bad.response.status).toBe(400);
    expect(bad.error).toMatchObject({ code: "VALIDATION_ERROR" });
    const missing = await t.forum.GET("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: "00000000-0000-4000-8000-00000000beef" } },
    });
    expect(missing.response.status).toBe(404);
  });
});
