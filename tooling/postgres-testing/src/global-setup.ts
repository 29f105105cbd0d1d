import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { startPostgres } from "./cluster.ts";
import { dropDatabases } from "./database.ts";
import { TEST_SERVER_KEY } from "./provided.ts";

/**
 * A vitest `globalSetup`: one PostgreSQL cluster for the whole test run, stopped and removed at its end. With
 * `PIGEONHOLE_TEST_DATABASE_URL` set, the tests use that server instead, and the run drops the databases it made
 * there. Test files make their own databases with `createTestDatabase()` from `@pigeonhole/postgres-testing/vitest`.
 */
export default async function setup(project: Pick<TestProject, "provide">): Promise<() => Promise<void>> {
  const prefix = `test_${randomBytes(4).toString("hex")}_`;
  const existing = process.env.PIGEONHOLE_TEST_DATABASE_URL;
  if (existing) {
    project.provide(TEST_SERVER_KEY, { url: existing, prefix });
    return async () => {
      await dropDatabases(existing, prefix);
    };
  }
  const cluster = await startPostgres();
  project.provide(TEST_SERVER_KEY, { url: cluster.url, prefix });
  return () => cluster.stop();
}
