import type { Insertable } from "kysely";
import { hotRank } from "../src/forum/hot-rank.ts";
import { newUuid } from "../src/ids.ts";
import type { ServerDatabase } from "../src/storage/database.ts";
import { DEFAULT_COMMUNITY } from "../src/storage/forum/default-community.ts";
import type { ForumPostTable } from "../src/storage/schema.ts";

/** Rows per insert statement, and per transaction. */
const BATCH = 500;

/** A hundred words, one in each post's text: searching one finds 1% of the posts. */
export const SEARCH_WORDS: readonly string[] = [
  "plan",
  "tool",
  "agent",
  "memory",
  "graph",
  "model",
  "query",
  "cache",
  "proof",
  "trace",
].flatMap((stem) => ["s", "ning", "er", "ful", "less", "ity", "ism", "ward", "ous", "ling"].map((end) => stem + end));

/** Every seeded post holds this word: a search for it matches them all. */
export const COMMON_WORD = "seeded";

/**
 * Adds posts `from` to `to - 1` of `authorId` straight into the database, a batch of rows per statement (the search
 * index is filled by the database as each row is stored), spread over ten days, with made-up vote counts.
 */
export async function seedSearchPosts(db: ServerDatabase, authorId: string, from: number, to: number): Promise<void> {
  const now = Date.now();
  for (let start = from; start < to; start += BATCH) {
    const rows: Insertable<ForumPostTable>[] = [];
    for (let i = start; i < Math.min(to, start + BATCH); i++) {
      const createdAt = now - Math.floor(((to - i) / to) * 10 * 86_400_000);
      const upvotes = i % 10 === 0 ? i % 37 : 0;
      const downvotes = Math.floor(upvotes / 4);
      const word = SEARCH_WORDS[i % SEARCH_WORDS.length];
      const titleWord = SEARCH_WORDS[(i * 7 + 3) % SEARCH_WORDS.length];
      rows.push({
        post_id: newUuid(),
        community_id: DEFAULT_COMMUNITY.id,
        author_id: authorId,
        title: `Post ${i} on ${titleWord}`,
        content: `A ${COMMON_WORD} post, number ${i}, about ${word} and how agents use it in practice every day.`,
        url: null,
        upvotes,
        downvotes,
        comment_count: 0,
        hot_rank: hotRank(upvotes, downvotes, createdAt),
        created_at: new Date(createdAt).toISOString(),
        created_at_ms: createdAt,
      });
    }
    await db.transaction().execute((trx) => trx.insertInto("forum_posts").values(rows).execute());
  }
}
