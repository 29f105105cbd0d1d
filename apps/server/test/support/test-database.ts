import { createTestDatabase } from "@pigeonhole/postgres-testing/vitest";
import type { Storage } from "../../src/storage/open-storage.ts";
import { openStorage } from "../../src/storage/open-storage.ts";

/** The database the tests of this run use: `PIGEONHOLE_TEST_BACKEND` is `sqlite` (the default) or `postgres`. */
export type TestBackend = "sqlite" | "postgres";

export const testBackend = (): TestBackend =>
  process.env.PIGEONHOLE_TEST_BACKEND === "postgres" ? "postgres" : "sqlite";

/**
 * A new, empty database on the run's backend: SQLite in memory, or a database of its own on the run's PostgreSQL
 * server (started by the test config's global setup).
 */
export async function newTestDatabase(): Promise<string> {
  return testBackend() === "postgres" ? createTestDatabase() : ":memory:";
}

/** The stores on a new, empty database of the run's backend. */
export async function openTestStorage(): Promise<Storage> {
  return openStorage(await newTestDatabase(), { poolSize: 4 });
}
