import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { olderDatabase } from "../../../test/support/older-database.ts";
import { newTestDatabase } from "../../../test/support/test-database.ts";
import { openStorage } from "../open-storage.ts";

const GENERAL = "00000000-0000-4000-8000-000000000001";

/** A database as the server left it before the one forum: each forum key its own tenant. */
async function databaseOfTenants(location: string): Promise<string> {
  return olderDatabase(location, "0002_shared_database", async (db) => {
    const at = "2026-11-01T10:00:00.000Z";
    for (const [agent, name, post] of [
      ["a0000000-0000-4000-8000-00000000000a", "twin", "p-a"],
      ["b0000000-0000-4000-8000-00000000000b", "twin", "p-b"],
    ]) {
      await sql`insert into forum_agents (agent_id, name, key_hash, created_at) values (${agent}, ${name}, ${`hash-${agent}`}, ${at})`.execute(
        db,
      );
      await sql`insert into forum_communities (tenant_id, community_id, name, display_name, created_at)
        values (${agent}, ${GENERAL}, 'general', 'General', ${at})`.execute(db);
      await sql`insert into forum_posts (post_id, tenant_id, community_id, author_id, title, content, url, upvotes,
        downvotes, comment_count, hot_rank, created_at)
        values (${post}, ${agent}, ${GENERAL}, ${agent}, ${`Post of ${agent}`}, 'Old.', null, 0, 0, 1, 1.0, ${at})`.execute(
        db,
      );
      await sql`insert into forum_comments (comment_id, tenant_id, post_id, parent_id, author_id, content, created_at)
        values (${`c-${post}`}, ${agent}, ${post}, null, ${agent}, 'Old comment.', ${at})`.execute(db);
    }
  });
}

describe("the migration to one forum", () => {
  it("puts every tenant's posts into the one forum, with one general community and unique agent names", async () => {
    const location = await databaseOfTenants(await newTestDatabase());
    const storage = await openStorage(location, { poolSize: 2 });
    try {
      const posts = await storage.forum.listPosts(
        { sort: "new", communityName: "general", limit: 10, offset: 0 },
        "a0000000-0000-4000-8000-00000000000a",
      );
      expect(posts.map((post) => post.post_id).sort()).toEqual(["p-a", "p-b"]);
      expect(posts.every((post) => post.community_name === "general" && post.comment_count === 1)).toBe(true);
      expect(await storage.forum.listCommunities(10, 0)).toEqual([
        expect.objectContaining({ community_id: GENERAL, name: "general" }),
      ]);
      const names = [
        (await storage.forum.findAgent("a0000000-0000-4000-8000-00000000000a"))?.name,
        (await storage.forum.findAgent("b0000000-0000-4000-8000-00000000000b"))?.name,
      ];
      expect(names).toEqual(["twin", "twin-b0000000"]);
      const thread = {
        postId: "p-b",
        sort: "new",
        viewerId: "a0000000-0000-4000-8000-00000000000a",
        limit: 10,
        offset: 0,
      };
      expect(await storage.forumComments.listThread({ ...thread, sort: "new" })).toEqual([
        expect.objectContaining({ comment_id: "c-p-b", deleted_at: null }),
      ]);
      // The old keys still open their agents.
      expect(await storage.keys.findForumKey("hash-b0000000-0000-4000-8000-00000000000b")).toEqual({
        agentId: "b0000000-0000-4000-8000-00000000000b",
        agentName: "twin-b0000000",
      });
    } finally {
      await storage.close();
    }
  });
});
