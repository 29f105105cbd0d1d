import { sql } from "kysely";
import { DEFAULT_MIGRATION_TABLE } from "kysely/migration";
import type { ServerDatabase } from "./database.ts";
import { sqliteColumnTypes } from "./migrations/column-types.ts";
import { migrationProvider } from "./migrations/migration-provider.ts";

/** Whether the database can serve this build: it answers, and it has run every migration of this build. */
export type DatabaseReadiness =
  | { readonly ready: true }
  | { readonly ready: false; readonly reason: "database" | "migrations"; readonly detail: string };

/** PostgreSQL's `undefined_table`: the migrations' own table is missing, so no migration ever ran. */
const UNDEFINED_TABLE = "42P01";

let expected: Promise<string> | undefined;

/**
 * The schema version this build expects: the name of its last migration, the one `migrateToLatest` ends at. Names
 * do not depend on the column types, so either database's will do.
 */
export function expectedSchemaVersion(): Promise<string> {
  expected ??= migrationProvider(sqliteColumnTypes)
    .getMigrations()
    .then((migrations) => Object.keys(migrations).sort().at(-1) ?? "");
  return expected;
}

const isMissingTable = (error: unknown): boolean =>
  (error as { code?: unknown }).code === UNDEFINED_TABLE ||
  (error instanceof Error && /no such table/i.test(error.message));

/**
 * One cheap query (a primary-key lookup): whether the database has run this build's last migration. A database that
 * is behind (restored from an older backup, or never migrated) is not ready; one migrated further by a newer build is,
 * since migrations only add to the schema and a previous version keeps working on it during a rolling upgrade.
 */
export async function checkSchemaVersion(db: ServerDatabase): Promise<DatabaseReadiness> {
  const version = await expectedSchemaVersion();
  const migrations = sql.table(DEFAULT_MIGRATION_TABLE);
  try {
    const { rows } = await sql<{ name: string }>`select name from ${migrations} where name = ${version}`.execute(db);
    if (rows.length > 0) {
      return { ready: true };
    }
    // Not ready: what the database is at, for the log line.
    const latest = await sql<{ name: string | null }>`select max(name) as name from ${migrations}`.execute(db);
    const found = latest.rows[0]?.name ?? "no migration";
    return {
      ready: false,
      reason: "migrations",
      detail: `the database's schema is at ${found}; this build needs ${version}`,
    };
  } catch (error) {
    if (isMissingTable(error)) {
      return { ready: false, reason: "migrations", detail: `the database has no schema; this build needs ${version}` };
    }
    return { ready: false, reason: "database", detail: error instanceof Error ? error.message : String(error) };
  }
}
