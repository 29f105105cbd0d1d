import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { Migrator } from "kysely/migration";
import { migrationProvider } from "./migrations.ts";
import type { DatabaseSchema } from "./schema.ts";
import { withStatementCache } from "./statement-cache.ts";

export type ServerDatabase = Kysely<DatabaseSchema>;

export class MigrationFailedError extends Error {
  override name = "MigrationFailedError";
}

/**
 * Opens (or creates) the SQLite database and brings its schema up to date. A file database runs in WAL mode with
 * `synchronous=NORMAL`: a committed write survives the process being killed (only an OS crash or power loss could
 * lose the last transactions). `busy_timeout` lets the CLI's `keys create` write while a server runs on the file.
 */
export async function openDatabase(location: string): Promise<ServerDatabase> {
  const sqlite = new Database(location);
  if (location !== ":memory:") {
    sqlite.pragma("journal_mode = WAL");
  }
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) {
    await db.destroy();
    throw new MigrationFailedError(`Could not migrate the database ${location}: ${String(error)}`, { cause: error });
  }
  return db;
}
