import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { olderDatabase } from "../../../test/support/older-database.ts";
import { newTestDatabase, testBackend } from "../../../test/support/test-database.ts";
import type { ServerDatabase } from "../database.ts";
import { SqlSearchStore } from "../forum/search-store.ts";
import { openPostgres } from "../postgres/open-postgres.ts";
import { postgresDialect } from "../postgres/postgres-dialect.ts";
import { openSqlite } from "../sqlite/open-sqlite.ts";
import { sqliteDialect } from "../sqlite/sqlite-dialect.ts";

const GENERAL = "00000000-0000-4000-8000-000000000001";
const AUTHOR = "a0000000-0000-4000-8000-00000000000a";

const insertComment = (id: string, createdAt: string) =>
  sql`insert into forum_comments (comment_id, post_id, parent_id, author_id, content, created_at, deleted_at)
    values (${id}, 'p-old', null, ${AUTHOR}, 'More lanterns downstream', ${createdAt}, null)`;

/** A post and comments indexed in an order other than their creation times, as a server before 0020 left them. */
async function indexedOutOfOrder(location: string): Promise<string> {
  return olderDatabase(location, "0018_search_prefix_indexes", async (db) => {
    await sql`insert into forum_agents (agent_id, name, key_hash, created_at)
      values (${AUTHOR}, 'author', 'hash-author', '2026-11-20T09:00:00.000Z')`.execute(db);
    await sql`insert into forum_posts (post_id, community_id, author_id, title, content, url, upvotes, downvotes,
      comment_count, hot_rank, created_at)
      values ('p-old', ${GENERAL}, ${AUTHOR}, 'Harbour', 'Lit lanterns at dusk.', null, 0, 0, 2, 0,
        '2026-11-20T10:00:00.000Z')`.execute(db);
    await insertComment("c-late", "2026-11-20T12:00:00.000Z").execute(db);
    await insertComment("c-early", "2026-11-20T11:00:00.000Z").execute(db);
  });
}

let opened: ServerDatabase | undefined;
afterEach(async () => {
  await opened?.destroy();
  opened = undefined;
});

describe("the migration keeping search items' creation times", () => {
  it("orders equally relevant matches newest first by creation time, before and after the upgrade", async () => {
    const location = await indexedOutOfOrder(await newTestDatabase());
    const postgres = testBackend() === "postgres";
    const db = postgres
      ? await openPostgres(location, { poolSize: 2, onConnectionError: () => {} })
      : await openSqlite(location);
    opened = db;
    const store = new SqlSearchStore(db, postgres ? postgresDialect : sqliteDialect);
    // A page of one at a time, so that each page is cut from the ranked matches by their order.
    const found = async () => {
      const pages = [];
      for (let offset = 0; offset < 5; offset += 1) {
        const [hit] = await store.search({ words: ["lanterns"], scope: "all", limit: 1, offset });
        if (hit !== undefined) {
          pages.push([hit.id, hit.relevance]);
        }
      }
      return pages;
    };
    expect(await found()).toEqual([
      ["c-late", 1],
      ["c-early", 1],
      ["p-old", 1],
    ]);

    // Written after the upgrade: indexed with its creation time by the triggers.
    await insertComment("c-new", "2026-11-20T13:00:00.000Z").execute(db);
    expect(await found()).toEqual([
      ["c-new", 1],
      ["c-late", 1],
      ["c-early", 1],
      ["p-old", 1],
    ]);
  });
});
