import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newTestDatabase, testBackend } from "../../test/support/test-database.ts";
import type { Storage } from "./open-storage.ts";
import { openStorage } from "./open-storage.ts";
import { connectPostgres } from "./postgres/open-postgres.ts";

let location: string;
let storage: Storage;
beforeAll(async () => {
  location = await newTestDatabase();
  storage = await openStorage(location, { poolSize: 4 });
});
afterAll(() => storage.close());

describe("rate-limit windows", () => {
  it("give concurrent requests of one bucket distinct counts, and each window its own", async () => {
    const start = Date.parse("2026-11-25T10:00:00.000Z");
    const counts = await Promise.all(
      Array.from({ length: 40 }, () => storage.rateWindows.increment("key:concurrent", start)),
    );
    expect(counts.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await storage.rateWindows.increment("key:concurrent", start + 60_000)).toBe(1);
    expect(await storage.rateWindows.increment("key:other", start + 60_000)).toBe(1);
  });

  it.runIf(testBackend() === "postgres")(
    "are counted on connections that commit without waiting for the disk, unlike every other write",
    async () => {
      const setting = async (asynchronousCommit: boolean) => {
        const db = connectPostgres(location, { poolSize: 1, onConnectionError: () => {}, asynchronousCommit });
        try {
          const { rows } = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db);
          return rows[0]?.synchronous_commit;
        } finally {
          await db.destroy();
        }
      };
      expect(await setting(true)).toBe("off");
      expect(await setting(false)).toBe("on");
    },
  );
});
