import type { SqliteDatabase } from "kysely";
import { Kysely, SqliteDialect } from "kysely";
import type { ServerDatabase } from "../database.ts";
import { migrateToLatest } from "../database.ts";
import { sqliteColumnTypes } from "../migrations/column-types.ts";
import { runInTransactionsWith, runReadsWith } from "../prepared-query.ts";
import type { DatabaseSchema } from "../schema.ts";
import { nodeSqliteDatabase, sqliteStatementRunner } from "./node-sqlite-driver.ts";

/**
 * Opens (or creates) a SQLite database and brings its schema up to date. A file database runs in WAL mode with
 * `synchronous=NORMAL`: a committed write survives the process being killed (an OS crash or power loss can lose
 * what was committed since the last checkpoint). A 5 s busy timeout lets the CLI's `keys create` write while a server runs on the file.
 * Transactions and writes go through one connection; prepared reads outside a transaction through a second one.
 */
export async function openSqlite(location: string): Promise<ServerDatabase> {
  // Loaded here rather than imported at the top: on a Node without `node:sqlite`, a static import would fail before the
  // version check that names the Node needed could run.
  const { DatabaseSync } = await import("node:sqlite");
  // `timeout` is the busy timeout in milliseconds (node's default, 0, fails at once on a locked database).
  const sqlite = new DatabaseSync(location, { timeout: 5000, enableForeignKeyConstraints: true });
  if (location !== ":memory:") {
    sqlite.exec("PRAGMA journal_mode = WAL");
  }
  // Set explicitly: node's SQLite syncs every commit (FULL) under WAL.
  // A checkpoint every 4,000 pages (16 MB of WAL) rather than SQLite's 1,000: a checkpoint copies each page changed
  // since the last one back into the database once, and the hot pages (the newest index leaves, the counters) change
  // in most commits, so copying less often costs about a quarter less per commit.
  sqlite.exec(`PRAGMA synchronous = NORMAL; ${CACHE_SIZE}; PRAGMA wal_autocheckpoint = 4000`);
  const writer = nodeSqliteDatabase(sqlite);
  // A database in memory is private to its one connection.
  const reader = location === ":memory:" ? undefined : openReader(DatabaseSync, location);
  const database: SqliteDatabase = {
    ...writer,
    close: () => {
      reader?.close();
      writer.close();
    },
  };
  const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database }) });
  runInTransactionsWith(db, sqliteStatementRunner(writer));
  try {
    await migrateToLatest(db, sqliteColumnTypes, location);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  if (reader) {
    runReadsWith(db, sqliteStatementRunner(reader));
  }
  return db;
}

// Node's SQLite keeps a 2 MB page cache; 16 MB holds the hot pages of a large forum.
const CACHE_SIZE = "PRAGMA cache_size = -16000";

/**
 * A second connection to the file, for reads outside transactions (see `runReadsWith`): under WAL it reads what was
 * committed while the first one writes. `query_only` makes any write through it fail rather than bypass the writer.
 */
function openReader(DatabaseSync: typeof import("node:sqlite").DatabaseSync, location: string): SqliteDatabase {
  const sqlite = new DatabaseSync(location, { timeout: 5000 });
  sqlite.exec(`PRAGMA query_only = ON; ${CACHE_SIZE}`);
  return nodeSqliteDatabase(sqlite);
}
