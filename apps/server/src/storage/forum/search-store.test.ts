import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMON_WORD, seedSearchPosts } from "../../../bench/search-seed.ts";
import { openTestDatabase } from "../../../test/support/test-database.ts";
import { newUuid } from "../../ids.ts";
import type { ServerDatabase } from "../database.ts";
import { DEFAULT_COMMUNITY } from "./default-community.ts";
import { MAX_RANKED_MATCHES, RELEVANCE, SqlSearchStore } from "./search-store.ts";

// One search ranks a bounded number of matches, however many posts hold the words.
let db: ServerDatabase;
let store: SqlSearchStore;
const authorId = newUuid();
const POSTS = MAX_RANKED_MATCHES + 50;

beforeAll(async () => {
  const [opened, dialect] = await openTestDatabase(2);
  db = opened;
  store = new SqlSearchStore(db, dialect);
  await db
    .insertInto("forum_agents")
    .values({
      agent_id: authorId,
      name: "seeder",
      description: null,
      key_hash: null,
      key_id: null,
      created_at: new Date().toISOString(),
    })
    .execute();
  await seedSearchPosts(db, authorId, 0, POSTS);
}, 120_000);
afterAll(() => db.destroy());

/** A word no other test uses (the seeded posts hold none of it), so each test searches only its own items. */
const uniqueWord = () => `zq${Math.random().toString(36).slice(2, 10)}`;

let minute = 0;
/** The next creation time: each item written after the one before, an hour after the seeded posts. */
const nextCreatedAt = () => new Date(Date.now() + 3_600_000 + ++minute * 60_000).toISOString();

async function addPost(title: string, content: string): Promise<string> {
  const postId = newUuid();
  const createdAt = nextCreatedAt();
  await db
    .insertInto("forum_posts")
    .values({
      post_id: postId,
      community_id: DEFAULT_COMMUNITY.id,
      author_id: authorId,
      title,
      content,
      url: null,
      upvotes: 0,
      downvotes: 0,
      comment_count: 0,
      hot_rank: 0,
      created_at: createdAt,
      created_at_ms: Date.parse(createdAt),
    })
    .execute();
  return postId;
}

async function addComment(postId: string, content: string): Promise<string> {
  const commentId = newUuid();
  await db
    .insertInto("forum_comments")
    .values({
      comment_id: commentId,
      post_id: postId,
      parent_id: null,
      author_id: authorId,
      content,
      created_at: nextCreatedAt(),
      deleted_at: null,
    })
    .execute();
  return commentId;
}

const ranking = async (words: string[], scope: "posts" | "comments" | "all" = "all") =>
  (await store.search({ words, scope, limit: 100, offset: 0 })).map(({ id, relevance }) => ({ id, relevance }));

describe("forum search", () => {
  it("ranks the most recent matches up to the cap when every post matches", async () => {
    const search = (offset: number) => store.search({ words: [COMMON_WORD], scope: "all", limit: 100, offset });
    expect(await search(0)).toHaveLength(100);
    expect(await search(MAX_RANKED_MATCHES - 30)).toHaveLength(30);
    expect(await search(MAX_RANKED_MATCHES)).toEqual([]);
    // The oldest posts are past the cap: "Post 0 ..." to "Post 49 ..." are never ranked.
    const ranked = (await search(MAX_RANKED_MATCHES - 100)).map((hit) =>
      Number(/Post (\d+) /.exec(hit.title ?? "")?.[1]),
    );
    expect(Math.min(...ranked)).toBeGreaterThanOrEqual(POSTS - MAX_RANKED_MATCHES);
  });

  it("scores each match by itself, the same on every database: every word in the title counts more", async () => {
    const word = uniqueWord();
    const { inTitle, elsewhere } = RELEVANCE;
    const both = await addPost(`Harbour ${word}`, `The ${word} harbour at dusk.`);
    const titleOnly = await addPost(`${word} harbour`, "Nothing else.");
    const textOnly = await addPost("Lanterns", `A harbour ${word.toUpperCase()} and more ${word}s.`);
    const split = await addPost(`Harbour notes`, `On ${word} only.`);
    const reply = await addComment(textOnly, `Harbour ${word} again.`);
    const latest = await addPost(`${word} harbours`, `${word} by the harbour`);

    // Relevance first, then newest first.
    expect(await ranking([word, "harbour"])).toEqual([
      { id: latest, relevance: inTitle },
      { id: titleOnly, relevance: inTitle },
      { id: both, relevance: inTitle },
      { id: reply, relevance: elsewhere },
      { id: split, relevance: elsewhere },
      { id: textOnly, relevance: elsewhere },
    ]);
    expect(await ranking([word], "posts")).toEqual([
      { id: latest, relevance: inTitle },
      { id: titleOnly, relevance: inTitle },
      { id: both, relevance: inTitle },
      { id: split, relevance: elsewhere },
      { id: textOnly, relevance: elsewhere },
    ]);
    expect(await ranking([word], "comments")).toEqual([{ id: reply, relevance: elsewhere }]);
  });

  it("never changes a match's relevance with how often its words occur elsewhere", async () => {
    const word = uniqueWord();
    const post = await addPost(`Tide tables ${word}`, `When the ${word} tide turns.`);
    const comment = await addComment(post, `Another ${word} note.`);
    const relevanceOf = async (words: string[], id: string) =>
      (await ranking(words)).find((hit) => hit.id === id)?.relevance;
    const before = [await relevanceOf([word, "tide"], post), await relevanceOf([word], comment)];

    // The word becomes common, and repeated, in other items, none of which holds `tide`.
    for (let i = 0; i < 40; i += 1) {
      const other = await addPost(`Other ${word} ${word}`, `${word} ${word} ${word}`);
      await addComment(other, `${word} ${word}`);
    }
    const after = [await relevanceOf([word, "tide"], post), await relevanceOf([word], comment)];
    expect(after).toEqual(before);
    expect(after).toEqual([RELEVANCE.inTitle, RELEVANCE.elsewhere]);
  });
});
