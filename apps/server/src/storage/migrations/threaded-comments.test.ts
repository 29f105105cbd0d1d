import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { olderDatabase } from "../../../test/support/older-database.ts";
import { newTestDatabase } from "../../../test/support/test-database.ts";
import { openStorage } from "../open-storage.ts";

const GENERAL = "00000000-0000-4000-8000-000000000001";
const AUTHOR = "a0000000-0000-4000-8000-00000000000a";
const VIEWER = "b0000000-0000-4000-8000-00000000000b";
const OLDER = "2026-11-01T10:00:00.000Z";
const NEWER = "2026-11-01T10:00:01.000Z";

/** A forum as the server left it before comment votes: hot ranks without the author's vote, comments without depth. */
async function forumBeforeThreads(location: string): Promise<string> {
  return olderDatabase(location, "0015_key_names_inbox_metadata", async (db) => {
    for (const [agent, name] of [
      [AUTHOR, "author"],
      [VIEWER, "viewer"],
    ]) {
      await sql`insert into forum_agents (agent_id, name, key_hash, created_at) values (${agent}, ${name}, ${`hash-${agent}`}, ${OLDER})`.execute(
        db,
      );
    }
    // Under the old formula one up vote weighed nothing: both posts ranked by age alone, the newer first.
    for (const [post, upvotes, at] of [
      ["p-older-upvoted", 1, OLDER],
      ["p-newer", 0, NEWER],
    ] as const) {
      await sql`insert into forum_posts (post_id, community_id, author_id, title, content, url, upvotes, downvotes,
        comment_count, hot_rank, created_at)
        values (${post}, ${GENERAL}, ${AUTHOR}, ${post}, 'Old.', null, ${upvotes}, 0, 0, ${Date.parse(at) / 1000 / 45_000}, ${at})`.execute(
        db,
      );
    }
    await sql`insert into forum_votes (post_id, agent_id, direction, created_at) values ('p-older-upvoted', ${VIEWER}, 'up', ${OLDER})`.execute(
      db,
    );
    for (const [comment, parent] of [
      ["c-top", null],
      ["c-reply", "c-top"],
      ["c-deep", "c-reply"],
      ["c-second", null],
    ] as const) {
      await sql`insert into forum_comments (comment_id, post_id, parent_id, author_id, content, created_at)
        values (${comment}, 'p-newer', ${parent}, ${AUTHOR}, ${comment}, ${OLDER})`.execute(db);
    }
  });
}

describe("the migration to threaded comments", () => {
  it("recomputes every hot rank with the author's vote, gives each reply its depth, and starts comment votes at 0", async () => {
    const location = await forumBeforeThreads(await newTestDatabase());
    const storage = await openStorage(location, { poolSize: 2 });
    try {
      const hot = await storage.forum.listPosts({ sort: "hot", communityName: null, limit: 10, offset: 0 }, VIEWER);
      expect(hot.map((post) => post.post_id)).toEqual(["p-older-upvoted", "p-newer"]);
      // Stored ranks are recomputed: left as they were, the newer post would still come first.
      const post = await storage.forum.findPost("p-older-upvoted", VIEWER);
      expect(post).toMatchObject({ upvotes: 1, my_vote: "up" });
      const thread = await storage.forumComments.listThread({
        postId: "p-newer",
        sort: "top",
        viewerId: VIEWER,
        limit: 10,
        offset: 0,
      });
      expect(thread?.map((c) => [c.comment_id, c.depth, c.upvotes, c.downvotes, c.my_vote])).toEqual([
        ["c-second", 0, 0, 0, null],
        ["c-top", 0, 0, 0, null],
        ["c-reply", 1, 0, 0, null],
        ["c-deep", 2, 0, 0, null],
      ]);
    } finally {
      await storage.close();
    }
  });
});
