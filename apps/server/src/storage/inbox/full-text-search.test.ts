import { type Kysely, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { olderDatabase } from "../../../test/support/older-database.ts";
import { newTestDatabase, openTestDatabase, testBackend } from "../../../test/support/test-database.ts";
import type { ServerDatabase } from "../database.ts";
import { openPostgres } from "../postgres/open-postgres.ts";
import { postgresDialect } from "../postgres/postgres-dialect.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import { openSqlite } from "../sqlite/open-sqlite.ts";
import { sqliteDialect } from "../sqlite/sqlite-dialect.ts";
import { SqlMessageSearchIndex } from "./full-text-search.ts";
import { deleteInbox } from "./inbox-deletion.ts";

const AT = "2026-11-22T09:30:00.000Z";

const messageRow = (inboxId: string, index: number, subject: string, html: string | null = null) => ({
  inbox_id: inboxId,
  message_id: `<m${index}@example.com>`,
  thread_id: `thd_${index}`,
  labels: '["received"]',
  sender: "Ada <ada@example.com>",
  to_addresses: JSON.stringify([inboxId]),
  cc_addresses: "[]",
  bcc_addresses: "[]",
  reply_to_addresses: "[]",
  subject,
  preview: null,
  text_body: `Body of message ${index}.`,
  html_body: html,
  in_reply_to: null,
  reference_ids: "[]",
  headers: "{}",
  size: 100,
  timestamp: AT,
  created_at: AT,
  updated_at: AT,
});

async function insertInbox(db: Kysely<unknown>, podId: string, inboxId: string) {
  await sql`insert into inboxes (inbox_id, pod_id, display_name, client_id, created_at, updated_at)
    values (${inboxId}, ${podId}, null, null, ${AT}, ${AT})`.execute(db);
}

async function insertMessage(db: Kysely<unknown>, row: ReturnType<typeof messageRow>) {
  const columns = Object.keys(row);
  await sql`insert into messages (${sql.join(columns.map((column) => sql.ref(column)))})
    values (${sql.join(Object.values(row))})`.execute(db);
}

/** Rows of the search index, whatever the database: a deleted message must leave none behind. */
async function indexedRows(db: ServerDatabase): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from message_search`.execute(db);
  return Number(rows[0]?.n);
}

const FIRST_PAGE = { limit: 10 };
const terms = (q: string) => ({ words: q.split(" ") });

let opened: ServerDatabase | undefined;
afterEach(async () => {
  await opened?.destroy();
  opened = undefined;
});

describe("the message search index", () => {
  it("indexes the messages a database held before it, html as its text", async () => {
    const location = await olderDatabase(await newTestDatabase(), "0010_key_records", async (db) => {
      await insertInbox(db, "pod-a", "old@pigeonhole.test");
      await insertMessage(
        db,
        messageRow("old@pigeonhole.test", 1, "Archived invoice", '<span class="zinnia">Tangerine</span>'),
      );
    });
    const [db, dialect] = await openExisting(location);
    const search = new SqlMessageSearchIndex(db, dialect);
    const found = await search.searchMessages("old@pigeonhole.test", terms("invoice"), FIRST_PAGE);
    expect(found.map(({ row }) => row.message.subject)).toEqual(["Archived invoice"]);
    expect(await search.searchMessages("old@pigeonhole.test", terms("tangerine"), FIRST_PAGE)).toHaveLength(1);
    expect(await search.searchMessages("old@pigeonhole.test", terms("span"), FIRST_PAGE)).toHaveLength(0);
    expect(await search.searchMessages("old@pigeonhole.test", terms("zinnia"), FIRST_PAGE)).toHaveLength(0);
  });

  it("forgets the messages of a deleted inbox, and never answers another pod's", async () => {
    const [db, dialect] = await openTestDatabase(2);
    opened = db;
    await insertInbox(db as Kysely<unknown>, "pod-a", "a@pigeonhole.test");
    await insertInbox(db as Kysely<unknown>, "pod-b", "b@pigeonhole.test");
    await insertMessage(db as Kysely<unknown>, messageRow("a@pigeonhole.test", 1, "Plum report"));
    await insertMessage(db as Kysely<unknown>, messageRow("a@pigeonhole.test", 2, "Plum summary"));
    await insertMessage(db as Kysely<unknown>, messageRow("b@pigeonhole.test", 3, "Plum secrets"));
    expect(await indexedRows(db)).toBe(3);

    const search = new SqlMessageSearchIndex(db, dialect);
    const podB = await search.searchThreads({ podId: "pod-b" }, terms("plum"), FIRST_PAGE);
    expect(podB.map(({ row }) => row.inbox_id)).toEqual([]);
    // Threads need their rows: the search joins the thread table.
    await sql`insert into threads (thread_id, inbox_id, subject, participants, labels, message_count, last_message_at, created_at, updated_at)
      values ('thd_3', 'b@pigeonhole.test', 'Plum secrets', '[]', '[]', 1, ${AT}, ${AT}, ${AT})`.execute(db);
    expect(
      (await search.searchThreads({ podId: "pod-a" }, terms("plum"), FIRST_PAGE)).map(({ row }) => row.thread_id),
    ).toEqual([]);
    expect(
      (await search.searchThreads({ podId: "pod-b" }, terms("plum"), FIRST_PAGE)).map(({ row }) => row.thread_id),
    ).toEqual(["thd_3"]);

    await db.transaction().execute((trx) => deleteInbox(trx, dialect, "pod-a", "a@pigeonhole.test", AT));
    expect(await indexedRows(db)).toBe(1);
    expect(await search.searchMessages("a@pigeonhole.test", terms("plum"), FIRST_PAGE)).toEqual([]);
  });
});

/** The database an older server left, opened (and so migrated) as the server opens it. */
async function openExisting(location: string): Promise<[ServerDatabase, SqlDialect]> {
  const db =
    testBackend() === "postgres"
      ? await openPostgres(location, { poolSize: 2, onConnectionError: () => {} })
      : await openSqlite(location);
  opened = db;
  return [db, testBackend() === "postgres" ? postgresDialect : sqliteDialect];
}
