import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase } from "@pigeonhole/postgres-testing/vitest";
import type { ServerDatabase } from "../../src/storage/database.ts";
import type { Storage } from "../../src/storage/open-storage.ts";
import { openStorage } from "../../src/storage/open-storage.ts";
import { openPostgres } from "../../src/storage/postgres/open-postgres.ts";
import { postgresDialect } from "../../src/storage/postgres/postgres-dialect.ts";
import type { SqlDialect } from "../../src/storage/sql-dialect.ts";
import { openSqlite } from "../../src/storage/sqlite/open-sqlite.ts";
import { sqliteDialect } from "../../src/storage/sqlite/sqlite-dialect.ts";

/** The database the tests of this run use: `PIGEONHOLE_TEST_BACKEND` is `sqlite` (the default) or `postgres`. */
export type TestBackend = "sqlite" | "postgres";

export const testBackend = (): TestBackend =>
  process.env.PIGEONHOLE_TEST_BACKEND === "postgres" ? "postgres" : "sqlite";

/**
 * A new, empty database on the run's backend: a SQLite file, as a server runs on (WAL, with its reading connection),
 * or a database of its own on the run's PostgreSQL server (started by the test config's global setup).
 */
export async function newTestDatabase(): Promise<string> {
  return testBackend() === "postgres" ? createTestDatabase() : join(sqliteFolder(), `${randomUUID()}.db`);
}

let folder: string | undefined;

/** This test process's folder of SQLite files, removed as it exits. */
function sqliteFolder(): string {
  if (folder === undefined) {
    const made = mkdtempSync(join(tmpdir(), "pigeonhole-test-"));
    process.once("exit", () => rmSync(made, { recursive: true, force: true }));
    folder = made;
  }
  return folder;
}

/** The stores on a new, empty database of the run's backend. */
export async function openTestStorage(): Promise<Storage> {
  return openStorage(await newTestDatabase(), { poolSize: 4 });
}

/**
 * A new, empty database of the run's backend as Kysely and the dialect of its queries, for tests of single stores;
 * on PostgreSQL a pool of `poolSize` connections.
 */
export async function openTestDatabase(poolSize: number): Promise<[ServerDatabase, SqlDialect]> {
  const location = await newTestDatabase();
  return testBackend() === "postgres"
    ? [await openPostgres(location, { poolSize, onConnectionError: () => {} }), postgresDialect]
    : [await openSqlite(location), sqliteDialect];
}
