import { isoTimestamp } from "../src/clock.ts";
import type { ServerDatabase } from "../src/storage/database.ts";
import type { NewMessageRow } from "../src/storage/inbox/send-store.ts";
import { openPostgres } from "../src/storage/postgres/open-postgres.ts";
import { openSqlite } from "../src/storage/sqlite/open-sqlite.ts";
import type { Cleanup } from "./cleanup.ts";
import { corpusMessage, VOCABULARY_SIZE, vocabularyWord } from "./message-search-corpus.ts";
import { percentile } from "./percentile.ts";
import { startServerInstances } from "./server-instances.ts";

// Search at growing sizes: one inbox filled straight through the database (as the server's own write path stores
// messages, so the search index's triggers index each one) to each size, then a server started on it and requests
// sent one after another over one connection, each kind measured in the same run as getting one message.

/** The inbox sizes searched, in order: each one adds messages to the last. */
export const SEARCH_SIZES: readonly number[] = [10_000, 100_000];
/** Requests measured per row, after a few to warm up; a row also stops after {@link ROW_TIME_LIMIT_MS}. */
const REQUESTS_PER_ROW = 200;
const WARM_UP_REQUESTS = 20;
const ROW_TIME_LIMIT_MS = 30_000;
/** Messages written per statement and per transaction while seeding. */
const BATCH = 500;

export const SEARCH_INBOX = "search-bench@pigeonhole.test";

export interface SearchDatabase {
  /** A SQLite file or a PostgreSQL address. */
  location: string;
  serverArgs: string[];
}

export interface SearchRow {
  messages: number;
  request: string;
  p50Ms: number;
  p95Ms: number;
  requests: number;
}

/** The requests measured at each size: the baseline first. */
function searchRequests(messageId: string): { name: string; path: string }[] {
  const inbox = `/v0/inboxes/${encodeURIComponent(SEARCH_INBOX)}`;
  const search = (q: string) => `${inbox}/messages/search?q=${encodeURIComponent(q)}`;
  const common = vocabularyWord(0);
  const rare = vocabularyWord(VOCABULARY_SIZE - 1);
  return [
    { name: "get message (baseline)", path: `${inbox}/messages/${encodeURIComponent(messageId)}` },
    { name: `search, a common word ("${common}", 20 per page)`, path: search(common) },
    { name: `search, a rare word ("${rare}")`, path: search(rare) },
    { name: "search, two words", path: search(`${vocabularyWord(3)} ${vocabularyWord(40)}`) },
    { name: "search, a word prefix", path: search(vocabularyWord(7).slice(0, 3)) },
  ];
}

const openDatabase = (location: string): Promise<ServerDatabase> =>
  location.startsWith("postgres")
    ? openPostgres(location, { poolSize: 2, onConnectionError: () => {} })
    : openSqlite(location);

const messageIdOf = (index: number) => `<search-${index}@bench.pigeonhole.test>`;

/** Adds messages `from` to `to - 1` of the corpus to the search inbox, creating it (in `podId`) first. */
async function seedMessages(location: string, podOfInbox: string, from: number, to: number): Promise<void> {
  const db = await openDatabase(location);
  try {
    const start = Date.now() - to * 1000;
    if (from === 0) {
      const { pod_id } = await db
        .selectFrom("inboxes")
        .select("pod_id")
        .where("inbox_id", "=", podOfInbox)
        .executeTakeFirstOrThrow();
      const at = isoTimestamp(start);
      await db
        .insertInto("inboxes")
        .values({ inbox_id: SEARCH_INBOX, pod_id, display_name: null, client_id: null, created_at: at, updated_at: at })
        .execute();
    }
    for (let first = from; first < to; first += BATCH) {
      const rows: NewMessageRow[] = [];
      for (let index = first; index < Math.min(first + BATCH, to); index += 1) {
        const message = corpusMessage(index);
        const at = isoTimestamp(start + index * 1000);
        rows.push({
          inbox_id: SEARCH_INBOX,
          message_id: messageIdOf(index),
          thread_id: `thd_search_${index % 5_000}`,
          labels: '["received"]',
          sender: message.from,
          to_addresses: JSON.stringify([message.to]),
          cc_addresses: "[]",
          bcc_addresses: "[]",
          reply_to_addresses: "[]",
          subject: message.subject,
          preview: message.text.slice(0, 100),
          text_body: message.text,
          html_body: message.html,
          in_reply_to: null,
          reference_ids: "[]",
          headers: "{}",
          size: message.text.length + message.html.length,
          timestamp: at,
          created_at: at,
          updated_at: at,
        });
      }
      await db.transaction().execute((trx) => trx.insertInto("messages").values(rows).execute());
    }
  } finally {
    await db.destroy();
  }
}

/** `path` sent `count` times one after another after the warm-up; the latencies in milliseconds. */
async function latencies(url: string, apiKey: string, path: string): Promise<number[]> {
  const measured: number[] = [];
  const deadline = performance.now() + ROW_TIME_LIMIT_MS;
  for (let sent = 0; sent < WARM_UP_REQUESTS + REQUESTS_PER_ROW && performance.now() < deadline; sent += 1) {
    const started = performance.now();
    const response = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${apiKey}` } });
    await response.arrayBuffer();
    if (!response.ok) {
      throw new Error(`GET ${path} answered ${response.status}.`);
    }
    if (sent >= WARM_UP_REQUESTS) {
      measured.push(performance.now() - started);
    }
  }
  return measured;
}

/**
 * Fills the search inbox (next to `podOfInbox`, an inbox of the benchmark's pod) to each of {@link SEARCH_SIZES} and
 * measures the requests on one server instance started for each size.
 */
export async function measureSearch(
  database: SearchDatabase,
  apiKey: string,
  podOfInbox: string,
  parentCleanup: Cleanup,
  report: (row: SearchRow) => void,
): Promise<void> {
  let stored = 0;
  for (const size of SEARCH_SIZES) {
    await seedMessages(database.location, podOfInbox, stored, size);
    stored = size;
    const cleanup = parentCleanup.nested();
    try {
      const servers = await startServerInstances(1, database.serverArgs);
      cleanup.add(() => servers.stop());
      const [instance] = servers.instances;
      if (!instance) {
        throw new Error("No server instance to search on.");
      }
      for (const request of searchRequests(messageIdOf(Math.floor(size / 2)))) {
        const measured = await latencies(instance.inboxUrl, apiKey, request.path);
        report({
          messages: size,
          request: request.name,
          p50Ms: percentile(measured, 50),
          p95Ms: percentile(measured, 95),
          requests: measured.length,
        });
      }
    } finally {
      await cleanup.run();
    }
  }
}

/** A row of the search table. */
export function renderSearchRow(row: SearchRow): string {
  return [
    row.messages.toLocaleString("en-US").padStart(9),
    row.request.padEnd(48),
    row.p50Ms.toFixed(2).padStart(8),
    row.p95Ms.toFixed(2).padStart(8),
    String(row.requests).padStart(6),
  ].join("  ");
}

export const SEARCH_TABLE_HEADER = `${"messages".padStart(9)}  ${"request".padEnd(48)}  ${"p50 ms".padStart(8)}  ${"p95 ms".padStart(8)}  ${"reqs".padStart(6)}`;
