import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { olderDatabase } from "../../../test/support/older-database.ts";
import { newTestDatabase, testBackend } from "../../../test/support/test-database.ts";
import type { ServerDatabase } from "../database.ts";
import { SqlSearchStore } from "../forum/search-store.ts";
import { SqlMessageSearchIndex } from "../inbox/full-text-search.ts";
import { openPostgres } from "../postgres/open-postgres.ts";
import { postgresDialect } from "../postgres/postgres-dialect.ts";
import { openSqlite } from "../sqlite/open-sqlite.ts";
import { sqliteDialect } from "../sqlite/sqlite-dialect.ts";

const GENERAL = "00000000-0000-4000-8000-000000000001";
const AUTHOR = "a0000000-0000-4000-8000-00000000000a";
const INBOX = "old@pigeonhole.test";
const AT = "2026-11-20T10:00:00.000Z";

const message = (index: number, subject: string, text: string) => ({
  inbox_id: INBOX,
  message_id: `<m${index}@example.com>`,
  thread_id: `thd_${index}`,
  labels: '["received"]',
  sender: "Ada <ada@example.com>",
  to_addresses: JSON.stringify([INBOX]),
  cc_addresses: "[]",
  bcc_addresses: "[]",
  reply_to_addresses: "[]",
  subject,
  preview: null,
  text_body: text,
  html_body: "<p>Quarterly <b>tangerine</b> figures</p>",
  in_reply_to: null,
  reference_ids: "[]",
  headers: "{}",
  size: 100,
  timestamp: AT,
  created_at: AT,
  updated_at: AT,
});

/** Mail and forum items as the server indexed them before prefix indexes. */
async function searchableBeforePrefixes(location: string): Promise<string> {
  return olderDatabase(location, "0017_forum_social", async (db) => {
    await sql`insert into inboxes (inbox_id, pod_id, display_name, client_id, created_at, updated_at)
      values (${INBOX}, 'pod-old', null, null, ${AT}, ${AT})`.execute(db);
    for (const row of [message(1, "Invoice for March", "Plain words."), message(2, "Lunch", "About the invoice.")]) {
      await sql`insert into messages (${sql.join(Object.keys(row).map((column) => sql.ref(column)))})
        values (${sql.join(Object.values(row))})`.execute(db);
    }
    await sql`insert into forum_agents (agent_id, name, key_hash, created_at)
      values (${AUTHOR}, 'author', 'hash-author', ${AT})`.execute(db);
    await sql`insert into forum_posts (post_id, community_id, author_id, title, content, url, upvotes, downvotes,
      comment_count, hot_rank, created_at)
      values ('p-old', ${GENERAL}, ${AUTHOR}, 'Harbour lanterns', 'Lit at dusk.', null, 0, 0, 2, 0, ${AT})`.execute(db);
    for (const [comment, content, deleted] of [
      ["c-kept", "More lanterns downstream", null],
      ["c-gone", "Secret lanterns", AT],
    ] as const) {
      await sql`insert into forum_comments (comment_id, post_id, parent_id, author_id, content, created_at, deleted_at)
        values (${comment}, 'p-old', null, ${AUTHOR}, ${content}, ${AT}, ${deleted})`.execute(db);
    }
  });
}

let opened: ServerDatabase | undefined;
afterEach(async () => {
  await opened?.destroy();
  opened = undefined;
});

async function openUpgraded(location: string) {
  const postgres = testBackend() === "postgres";
  const db = postgres
    ? await openPostgres(location, { poolSize: 2, onConnectionError: () => {} })
    : await openSqlite(location);
  opened = db;
  const dialect = postgres ? postgresDialect : sqliteDialect;
  return { db, messages: new SqlMessageSearchIndex(db, dialect), forum: new SqlSearchStore(db, dialect) };
}

describe("the migration to prefix-indexed search", () => {
  it("keeps every message and forum item findable, by short and long prefixes, ranked as before", async () => {
    const { db, messages, forum } = await openUpgraded(await searchableBeforePrefixes(await newTestDatabase()));
    const subjects = async (q: string) =>
      (await messages.searchMessages(INBOX, { words: q.split(" ") }, { limit: 10 })).map(
        ({ row, position }) => [row.message.subject, position.score] as const,
      );
    expect(await subjects("invoice")).toEqual([
      ["Invoice for March", 4],
      ["Lunch", 1],
    ]);
    expect(await subjects("in")).toEqual([
      ["Invoice for March", 4],
      ["Lunch", 1],
    ]);
    expect(await subjects("tan quarter")).toEqual([
      ["Lunch", 1],
      ["Invoice for March", 1],
    ]);
    expect(await subjects("ad")).toHaveLength(2);

    const found = async (q: string) =>
      (await forum.search({ words: q.split(" "), scope: "all", limit: 10, offset: 0 })).map((hit) => hit.id).sort();
    expect(await found("lan")).toEqual(["c-kept", "p-old"]);
    expect(await found("lanterns")).toEqual(["c-kept", "p-old"]);
    expect(await found("se")).toEqual([]);

    // What is written after the upgrade is indexed by the same triggers.
    await sql`insert into forum_comments (comment_id, post_id, parent_id, author_id, content, created_at, deleted_at)
      values ('c-new', 'p-old', null, ${AUTHOR}, 'Seaweed lanterns', ${AT}, null)`.execute(db);
    expect(await found("se")).toEqual(["c-new"]);
  });

  it("builds the SQLite indexes with prefix indexes, and indexes PostgreSQL's comments newest first", async () => {
    const { db } = await openUpgraded(await searchableBeforePrefixes(await newTestDatabase()));
    if (testBackend() === "postgres") {
      const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes
        where tablename = 'forum_comments' and indexname = 'forum_comments_new'`.execute(db);
      expect(rows.map((row) => row.indexdef)).toEqual([expect.stringContaining("created_at DESC, comment_id")]);
    } else {
      const { rows } = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
        where name in ('message_search', 'forum_search') order by name`.execute(db);
      expect(rows).toEqual([
        { name: "forum_search", sql: expect.stringContaining("prefix = '2 3 4'") },
        { name: "message_search", sql: expect.stringContaining("prefix = '2 3 4'") },
      ]);
    }
  });
});
