import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { createDatabase } from "./database.ts";
import { TEST_SERVER_KEY } from "./provided.ts";

/**
 * A new, empty database on the test run's PostgreSQL server, and its address: call it once per test file (in
 * `beforeAll`) for a database of the file's own. Needs `@pigeonhole/postgres-testing/global-setup` in the vitest
 * config's `globalSetup`.
 */
export function createTestDatabase(): Promise<string> {
  const server = inject(TEST_SERVER_KEY);
  if (server === undefined) {
    throw new Error(
      'No PostgreSQL server for the tests: add "@pigeonhole/postgres-testing/global-setup" to globalSetup in the vitest config.',
    );
  }
  return createDatabase(server.url, `${server.prefix}${randomBytes(4).toString("hex")}`);
}
