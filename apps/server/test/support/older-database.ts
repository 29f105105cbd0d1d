// For the migration tests: a database as an older server left it, to start the current server on.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import { Migrator } from "kysely/migration";
import pg from "pg";
import { postgresColumnTypes, sqliteColumnTypes } from "../../src/storage/migrations/column-types.ts";
import { migrationProvider } from "../../src/storage/migrations/migration-provider.ts";
import { nodeSqliteDatabase } from "../../src/storage/sqlite/node-sqlite-driver.ts";
import { testBackend } from "./test-database.ts";

/**
 * Migrates a database only up to `migration` (on PostgreSQL the one at `location`; on SQLite a new file), lets `fill`
 * write rows in that schema, closes it, and answers where it is: what `startServer({ database })` takes.
 */
export async function olderDatabase(
  location: string,
  migration: string,
  fill: (db: Kysely<unknown>) => Promise<void>,
): Promise<string> {
  const postgres = testBackend() === "postgres";
  const database = postgres ? location : join(mkdtempSync(join(tmpdir(), "pigeonhole-migration-")), "old.db");
  const db = new Kysely<unknown>({
    dialect: postgres
      ? new PostgresDialect({ pool: new pg.Pool({ connectionString: location, max: 1 }) })
      : new SqliteDialect({ database: nodeSqliteDatabase(new DatabaseSync(database)) }),
  });
  try {
    const migrator = new Migrator({
      db,
      provider: migrationProvider(postgres ? postgresColumnTypes : sqliteColumnTypes),
    });
    const { error } = await migrator.migrateTo(migration);
    if (error !== undefined) {
      throw error;
    }
    await fill(db);
  } finally {
    await db.destroy();
  }
  return database;
}
