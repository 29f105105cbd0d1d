import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { olderDatabase } from "../../../test/support/older-database.ts";
import { newTestDatabase } from "../../../test/support/test-database.ts";
import { openStorage } from "../open-storage.ts";

const GENERAL = "00000000-0000-4000-8000-000000000001";
const AUTHOR = "a0000000-0000-4000-8000-00000000000a";
const AT = "2026-11-01T10:00:00.000Z";

/** Comments in the order written, each with its parent: two threads, one three levels deep. */
const COMMENTS = [
  ["c-1", null, "2026-11-01T10:00:01.000Z"],
  ["c-1a", "c-1", "2026-11-01T10:00:02.000Z"],
  ["c-1a-i", "c-1a", "2026-11-01T10:00:03.000Z"],
  ["c-1a-i-x", "c-1a-i", "2026-11-01T10:00:04.000Z"],
  ["c-1b", "c-1", "2026-11-01T10:00:05.000Z"],
  ["c-2", null, "2026-11-01T10:00:06.000Z"],
  ["c-2a", "c-2", "2026-11-01T10:00:07.000Z"],
] as const;

/**
 * A forum with the comments written by plain inserts, as the server wrote them before it counted replies: before
 * the migration (`0018`), or after it by an instance of the previous version still running (`0019`).
 */
async function forumWrittenTheOldWay(location: string, migration: string): Promise<string> {
  return olderDatabase(location, migration, async (db) => {
    await sql`insert into forum_agents (agent_id, name, key_hash, created_at) values (${AUTHOR}, 'author', 'hash', ${AT})`.execute(
      db,
    );
    await sql`insert into forum_posts (post_id, community_id, author_id, title, content, url, upvotes, downvotes,
      comment_count, hot_rank, created_at) values ('p', ${GENERAL}, ${AUTHOR}, 'Post', 'Text.', null, 0, 0,
      ${COMMENTS.length}, 0, ${AT})`.execute(db);
    const depth = new Map<string | null, number>([[null, -1]]);
    for (const [comment, parent, at] of COMMENTS) {
      depth.set(comment, (depth.get(parent) ?? -1) + 1);
      await sql`insert into forum_comments (comment_id, post_id, parent_id, author_id, content, created_at, depth)
        values (${comment}, 'p', ${parent}, ${AUTHOR}, ${comment}, ${at}, ${depth.get(comment)})`.execute(db);
    }
  });
}

const ORDER = ["c-2", "c-2a", "c-1", "c-1b", "c-1a", "c-1a-i", "c-1a-i-x"];

async function expectEveryPage(location: string) {
  const storage = await openStorage(location, { poolSize: 2 });
  try {
    const page = async (offset: number, limit: number) =>
      (
        (await storage.forumComments.listThread({ postId: "p", sort: "new", viewerId: AUTHOR, limit, offset })) ?? []
      ).map((c) => c.comment_id);
    expect(await page(0, 10)).toEqual(ORDER);
    // Each of these pages starts after a whole thread or inside one: only right counts land on the right comment.
    for (let offset = 0; offset < ORDER.length; offset++) {
      expect(await page(offset, 2)).toEqual(ORDER.slice(offset, offset + 2));
    }
  } finally {
    await storage.close();
  }
}

describe("the migration that counts each comment's replies", () => {
  it("counts the replies already stored, so that pages step over whole threads from the first request on", async () => {
    await expectEveryPage(await forumWrittenTheOldWay(await newTestDatabase(), "0018_search_prefix_indexes"));
  });

  it("has the database count replies that an instance of the previous version writes after it ran", async () => {
    await expectEveryPage(await forumWrittenTheOldWay(await newTestDatabase(), "0019_comment_thread_sizes"));
  });
});
