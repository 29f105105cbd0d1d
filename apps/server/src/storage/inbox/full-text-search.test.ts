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
import type { Ranked, RankedPosition, SearchTerms } from "./full-text-search.ts";
import { MAX_RANKED_MATCHES, SqlMessageSearchIndex } from "./full-text-search.ts";
import { deleteInbox } from "./inbox-deletion.ts";
import type { NewMessageRow, ThreadColumns } from "./send-store.ts";

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

/** A second apart from a fixed start, so that `index` orders messages as their storing does. */
const secondAt = (index: number) => new Date(Date.parse("2026-01-01T00:00:00.000Z") + index * 1000).toISOString();

/** Messages stored straight into the database, a batch per statement; each one's thread given by `threadOf`. */
async function storeMessages(
  db: ServerDatabase,
  inboxId: string,
  indexes: readonly number[],
  message: (index: number) => { subject: string; text: string; threadId: string },
) {
  for (let start = 0; start < indexes.length; start += 500) {
    const rows: NewMessageRow[] = indexes.slice(start, start + 500).map((index) => {
      const { subject, text, threadId } = message(index);
      return {
        ...messageRow(inboxId, index, subject),
        message_id: `<m${index}@${inboxId}>`,
        thread_id: threadId,
        text_body: text,
        timestamp: secondAt(index),
        created_at: secondAt(index),
        updated_at: secondAt(index),
      };
    });
    await db.insertInto("messages").values(rows).execute();
  }
}

async function storeThreads(db: ServerDatabase, inboxId: string, threadIds: readonly string[]) {
  const rows: ThreadColumns[] = threadIds.map((threadId) => ({
    thread_id: threadId,
    inbox_id: inboxId,
    subject: null,
    participants: "[]",
    labels: "[]",
    message_count: 1,
    last_message_at: AT,
    created_at: AT,
    updated_at: AT,
  }));
  await db.insertInto("threads").values(rows).execute();
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, offset) => from + offset);

/** Every page of a ranked search, as the search handlers page it (`limit` rows, each page after the last one's). */
async function everyPage<T>(
  fetch: (page: { limit: number; after?: RankedPosition }) => Promise<Ranked<T>[]>,
  limit: number,
  betweenPages: () => Promise<void> = async () => {},
): Promise<T[]> {
  const rows: T[] = [];
  let after: RankedPosition | undefined;
  for (;;) {
    const page = await fetch({ limit: limit + 1, after });
    rows.push(...page.slice(0, limit).map(({ row }) => row));
    after = page[limit - 1]?.position;
    if (page.length <= limit || after === undefined) {
      return rows;
    }
    await betweenPages();
  }
}

describe("the work of one search", () => {
  // More matches than a search ranks: the oldest few have the word in their subject, so that ranking every match
  // would put them first; the rest only in their text.
  const OLDEST = 30;
  const MATCHES = OLDEST + MAX_RANKED_MATCHES;
  const A = "a@pigeonhole.test";
  const B = "b@pigeonhole.test";
  const walnut: SearchTerms = { words: ["walnut"] };

  async function manyMatches(): Promise<[ServerDatabase, SqlMessageSearchIndex]> {
    const [db, dialect] = await openTestDatabase(2);
    opened = db;
    await insertInbox(db as Kysely<unknown>, "pod-a", A);
    await insertInbox(db as Kysely<unknown>, "pod-b", B);
    await storeMessages(db, A, range(0, MATCHES), (index) =>
      index < OLDEST
        ? { subject: "Walnut ledger", text: "Walnut prices.", threadId: `thd_old_${index}` }
        : { subject: `Note ${index}`, text: `Walnut number ${index}.`, threadId: `thd_${index % 100}` },
    );
    await storeThreads(db, A, [
      ...range(0, OLDEST).map((index) => `thd_old_${index}`),
      ...range(0, 100).map((index) => `thd_${index}`),
    ]);
    // Another pod's matches, stored after all of these: they never take a place among this pod's candidates.
    await storeMessages(db, B, range(MATCHES, MATCHES + 500), (index) => ({
      subject: "Walnut",
      text: "Walnut.",
      threadId: `thd_b_${index}`,
    }));
    return [db, new SqlMessageSearchIndex(db, dialect)];
  }

  it("ranks the newest matches of the inbox or the pod up to the cap, however many match; older ones are reached with `before`", async () => {
    const [, search] = await manyMatches();
    const found = await search.searchMessages(A, walnut, { limit: MATCHES + 1 });
    expect(found).toHaveLength(MAX_RANKED_MATCHES);
    const indexes = found.map(({ row }) => Number(/^<m(\d+)@/.exec(row.message.message_id)?.[1]));
    expect(Math.min(...indexes)).toBe(OLDEST);
    expect(new Set(indexes).size).toBe(MAX_RANKED_MATCHES);

    const threads = await search.searchThreads({ podId: "pod-a" }, walnut, { limit: MATCHES + 1 });
    expect(threads.map(({ row }) => row.thread_id).sort()).toEqual(
      range(0, 100)
        .map((index) => `thd_${index}`)
        .sort(),
    );

    const older = { ...walnut, before: secondAt(OLDEST) };
    const oldest = await search.searchMessages(A, older, { limit: MATCHES + 1 });
    expect(oldest.map(({ row }) => row.message.subject)).toEqual(Array(OLDEST).fill("Walnut ledger"));
    expect(oldest[0]?.position.score).toBe(5);
    const oldThreads = await search.searchThreads({ inboxId: A }, older, { limit: MATCHES + 1 });
    expect(oldThreads).toHaveLength(OLDEST);
  }, 120_000);

  it("pages through the matches of its first page, whatever is stored between pages", async () => {
    const [db, search] = await manyMatches();
    let added = MATCHES + 500;
    const paged = await everyPage(
      (page) => search.searchMessages(A, walnut, page),
      4_000,
      // New matches would push the oldest candidates out of the newest ones, after the page boundary.
      async () => {
        const late = range(added, added + 20);
        added += late.length;
        await storeMessages(db, A, late, (index) => ({
          subject: "Walnut late",
          text: "Walnut.",
          threadId: `thd_${index % 100}`,
        }));
      },
    );
    const ids = paged.map(({ message }) => message.message_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(
      range(OLDEST, MATCHES)
        .map((index) => `<m${index}@${A}>`)
        .sort(),
    );
  }, 120_000);
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
