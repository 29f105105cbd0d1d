import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStorage } from "../../../test/support/test-database.ts";
import { isoTimestamp } from "../../clock.ts";
import { hotRank } from "../../forum/hot-rank.ts";
import { newUuid } from "../../ids.ts";
import type { Storage } from "../open-storage.ts";
import type { CommentSort } from "./comment-order.ts";
import { MAX_COMMENT_DEPTH } from "./comment-store.ts";
import { DEFAULT_COMMUNITY } from "./default-community.ts";

/** A comment as the reference order needs it. */
interface Node {
  id: string;
  parentId: string | null;
  depth: number;
  createdAtMs: number;
  upvotes: number;
  downvotes: number;
}

const start = Date.parse("2026-11-22T00:00:00.000Z");
const authorId = newUuid();
let storage: Storage;

beforeAll(async () => {
  storage = await openTestStorage();
  await storage.keys.registerAgent(
    "author",
    { agentId: authorId, name: "threads", description: null },
    isoTimestamp(start),
  );
});
afterAll(() => storage.close());

/** A small deterministic generator (mulberry32), so a failure repeats. */
function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const controversy = (n: Node) =>
  n.upvotes === 0 || n.downvotes === 0
    ? 0
    : ((n.upvotes + n.downvotes) * Math.min(n.upvotes, n.downvotes)) / Math.max(n.upvotes, n.downvotes);

/** The documented sibling orders, written out again here as the spec states them. */
const siblingCompare: Record<CommentSort, (a: Node, b: Node) => number> = {
  top: (a, b) =>
    b.upvotes - b.downvotes - (a.upvotes - a.downvotes) || a.createdAtMs - b.createdAtMs || cmp(a.id, b.id),
  new: (a, b) => b.createdAtMs - a.createdAtMs || cmp(a.id, b.id),
  controversial: (a, b) => controversy(b) - controversy(a) || a.createdAtMs - b.createdAtMs || cmp(a.id, b.id),
};
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function threadedOrder(nodes: Node[], sort: CommentSort): string[] {
  const children = new Map<string | null, Node[]>();
  for (const node of nodes) {
    children.set(node.parentId, [...(children.get(node.parentId) ?? []), node]);
  }
  const order: string[] = [];
  const visit = (parentId: string | null) => {
    for (const node of (children.get(parentId) ?? []).sort(siblingCompare[sort])) {
      order.push(node.id);
      visit(node.id);
    }
  };
  visit(null);
  return order;
}

let voters = 0;

/** Casts `ups` up votes and `downs` down votes on a comment, each by a new agent. */
async function vote(commentId: string, ups: number, downs: number) {
  for (let i = 0; i < ups + downs; i++) {
    voters += 1;
    await storage.forumComments.vote(commentId, `voter-${voters}`, i < ups ? "up" : "down", isoTimestamp(start));
  }
}

/**
 * A post with `count` comments by `authors` under random parents (bushy and deep), random votes, and runs of
 * comments written in the same millisecond.
 */
async function randomThread(
  seed: number,
  count: number,
  authors = [authorId],
): Promise<{ postId: string; nodes: Node[] }> {
  const random = randomFrom(seed);
  const postId = newUuid();
  await storage.forum.createPost({
    postId,
    communityId: DEFAULT_COMMUNITY.id,
    authorId,
    title: `thread ${seed}`,
    content: "Discuss",
    url: null,
    hotRank: hotRank(0, 0, start),
    createdAt: isoTimestamp(start),
  });
  const nodes: Node[] = [];
  for (let i = 0; i < count; i++) {
    // The first comments form one chain to the depth limit; then half the replies answer one of the last few.
    const recent = nodes.slice(-4).filter((n) => n.depth < MAX_COMMENT_DEPTH);
    const pool = random() < 0.5 ? recent : nodes.filter((n) => n.depth < MAX_COMMENT_DEPTH);
    const parent =
      i <= MAX_COMMENT_DEPTH
        ? (nodes.at(-1) ?? null)
        : random() < 0.2 || pool.length === 0
          ? null
          : (pool[Math.floor(random() * pool.length)] ?? null);
    const node: Node = {
      id: newUuid(),
      parentId: parent?.id ?? null,
      depth: parent ? parent.depth + 1 : 0,
      createdAtMs: start + Math.floor(i / 3) * 1000,
      upvotes: Math.floor(random() * 4),
      downvotes: Math.floor(random() * 3),
    };
    const created = await storage.forum.createComment({
      commentId: node.id,
      postId,
      parentId: node.parentId,
      authorId: authors[i % authors.length] ?? authorId,
      content: `c${i}`,
      createdAt: isoTimestamp(node.createdAtMs),
    });
    expect(created).toHaveProperty("created");
    await vote(node.id, node.upvotes, node.downvotes);
    nodes.push(node);
  }
  return { postId, nodes };
}

async function pageIds(postId: string, sort: CommentSort, limit: number, offset: number): Promise<string[]> {
  const rows = await storage.forumComments.listThread({ postId, sort, viewerId: authorId, limit, offset });
  return (rows ?? []).map((row) => row.comment_id);
}

describe("a page of a post's threaded comments", () => {
  it("is the slice [offset, offset + limit) of the whole threaded order, for every sort, offset and page size", async () => {
    const { postId, nodes } = await randomThread(27, 160);
    expect(Math.max(...nodes.map((n) => n.depth))).toBe(MAX_COMMENT_DEPTH);
    for (const sort of ["top", "new", "controversial"] as const) {
      const expected = threadedOrder(nodes, sort);
      for (const limit of [1, 7, 25, 100]) {
        for (let offset = 0; offset <= nodes.length; offset += limit === 1 ? 2 : 5) {
          expect(await pageIds(postId, sort, limit, offset), `${sort} limit ${limit} offset ${offset}`).toEqual(
            expected.slice(offset, offset + limit),
          );
        }
      }
    }
  });

  it("answers an empty page past the end and null for a post that does not exist", async () => {
    const { postId, nodes } = await randomThread(3, 12);
    expect(await pageIds(postId, "top", 25, nodes.length)).toEqual([]);
    expect(await pageIds(postId, "top", 25, 2 ** 53 - 1)).toEqual([]);
    expect(
      await storage.forumComments.listThread({
        postId: newUuid(),
        sort: "top",
        viewerId: authorId,
        limit: 5,
        offset: 0,
      }),
    ).toBeNull();
  });

  it("steps over hundreds of siblings before a page, in reads that grow, without losing one", async () => {
    const postId = newUuid();
    await storage.forum.createPost({
      postId,
      communityId: DEFAULT_COMMUNITY.id,
      authorId,
      title: "wide",
      content: "Discuss",
      url: null,
      hotRank: hotRank(0, 0, start),
      createdAt: isoTimestamp(start),
    });
    const nodes: Node[] = [];
    const add = async (parent: Node | null, i: number) => {
      const node: Node = {
        id: newUuid(),
        parentId: parent?.id ?? null,
        depth: parent ? parent.depth + 1 : 0,
        createdAtMs: start + i,
        upvotes: 0,
        downvotes: 0,
      };
      await storage.forum.createComment({
        commentId: node.id,
        postId,
        parentId: node.parentId,
        authorId,
        content: `w${i}`,
        createdAt: isoTimestamp(node.createdAtMs),
      });
      nodes.push(node);
      return node;
    };
    for (let i = 0; i < 300; i++) {
      await add(null, i);
    }
    const wide = nodes[150] ?? null;
    for (let i = 0; i < 200; i++) {
      await add(wide, 1000 + i);
    }
    const expected = threadedOrder(nodes, "new");
    for (const limit of [1, 25, 100]) {
      for (let offset = 0; offset <= nodes.length; offset += 13) {
        expect(await pageIds(postId, "new", limit, offset), `limit ${limit} offset ${offset}`).toEqual(
          expected.slice(offset, offset + limit),
        );
      }
    }
  });

  it("deletes a post while replies to it are being written, each write either stored or told the post is gone", async () => {
    for (let round = 0; round < 4; round++) {
      const { postId, nodes } = await randomThread(100 + round, 8);
      const writes = nodes.map((parent, i) =>
        storage.forum.createComment({
          commentId: newUuid(),
          postId,
          parentId: parent.id,
          authorId,
          content: `late ${i}`,
          createdAt: isoTimestamp(start),
        }),
      );
      const [deleted, ...written] = await Promise.all([storage.forum.deletePost(postId, authorId), ...writes]);
      expect(deleted).toBe("deleted");
      for (const result of written) {
        expect(["created" in result, "missing" in result]).toContain(true);
      }
      expect(await pageIds(postId, "top", 25, 0)).toEqual([]);
    }
  });

  it("deletes comments while replies to them are being written, and keeps every reply in its place", async () => {
    const { postId, nodes } = await randomThread(200, 12);
    const replies: Node[] = nodes.map((parent, i) => ({
      id: newUuid(),
      parentId: parent.id,
      depth: parent.depth + 1,
      createdAtMs: start + 90_000 + i,
      upvotes: 0,
      downvotes: 0,
    }));
    const deletes = nodes.map((node) => storage.forum.deleteComment(node.id, authorId, isoTimestamp(start)));
    const writes = replies.map((reply) =>
      storage.forum.createComment({
        commentId: reply.id,
        postId,
        parentId: reply.parentId,
        authorId,
        content: "meanwhile",
        createdAt: isoTimestamp(reply.createdAtMs),
      }),
    );
    const results = await Promise.all([...deletes, ...writes]);
    expect(results.slice(0, nodes.length)).toEqual(nodes.map(() => "deleted"));
    const all = replies.filter((reply) => MAX_COMMENT_DEPTH >= reply.depth);
    expect(
      results.slice(nodes.length).filter((result) => typeof result === "object" && "created" in result),
    ).toHaveLength(all.length);
    const expected = threadedOrder([...nodes, ...all], "new");
    expect(await pageIds(postId, "new", 100, 0)).toEqual(expected);
  });

  it("counts every reply when many are written at once under one chain, with none lost or deadlocked", async () => {
    const { postId, nodes } = await randomThread(5, MAX_COMMENT_DEPTH + 1);
    const replies: Node[] = nodes.slice(0, 12).flatMap((parent, i) =>
      [0, 1].map((k) => ({
        id: newUuid(),
        parentId: parent.id,
        depth: parent.depth + 1,
        createdAtMs: start + 60_000 + i * 2 + k,
        upvotes: 0,
        downvotes: 0,
      })),
    );
    const results = await Promise.all(
      replies.map((reply) =>
        storage.forum.createComment({
          commentId: reply.id,
          postId,
          parentId: reply.parentId,
          authorId,
          content: "at once",
          createdAt: isoTimestamp(reply.createdAtMs),
        }),
      ),
    );
    expect(results.every((result) => "created" in result)).toBe(true);
    const all = [...nodes, ...replies];
    for (const sort of ["top", "new"] as const) {
      const expected = threadedOrder(all, sort);
      for (let offset = 0; offset <= all.length; offset += 3) {
        expect(await pageIds(postId, sort, 4, offset), `${sort} offset ${offset}`).toEqual(
          expected.slice(offset, offset + 4),
        );
      }
    }
  });

  it("stays exact when an agent's replies are taken away, which lowers the reply counts above them", async () => {
    const leaver = newUuid();
    await storage.keys.registerAgent(
      "leaver",
      { agentId: leaver, name: "leaver", description: null },
      isoTimestamp(start),
    );
    const { postId, nodes } = await randomThread(11, 60, [authorId, leaver]);
    await storage.reset.wipeForumAgent(leaver, hotRank, isoTimestamp(start));
    // What stays: the author's comments, and the leaver's with one of the author's somewhere below (shown as deleted).
    const byLeaver = new Set(nodes.filter((_, i) => i % 2 === 1).map((n) => n.id));
    const staysBelow = (id: string): boolean =>
      nodes.some((n) => n.parentId === id && (!byLeaver.has(n.id) || staysBelow(n.id)));
    const kept = nodes.filter((n) => !byLeaver.has(n.id) || staysBelow(n.id));
    expect(kept.length).toBeLessThan(nodes.length);
    expect(kept.some((n) => byLeaver.has(n.id))).toBe(true);
    for (const sort of ["top", "new", "controversial"] as const) {
      const expected = threadedOrder(kept, sort);
      for (let offset = 0; offset <= kept.length; offset += 4) {
        expect(await pageIds(postId, sort, 5, offset), `${sort} offset ${offset}`).toEqual(
          expected.slice(offset, offset + 5),
        );
      }
    }
  });
});
