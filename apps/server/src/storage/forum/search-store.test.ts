import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMON_WORD, seedSearchPosts } from "../../../bench/search-seed.ts";
import { openTestDatabase } from "../../../test/support/test-database.ts";
import { newUuid } from "../../ids.ts";
import type { ServerDatabase } from "../database.ts";
import { MAX_RANKED_MATCHES, SqlSearchStore } from "./search-store.ts";

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
});
