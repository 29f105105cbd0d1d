import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import setup from "../src/global-setup.ts";
import { startPostgres } from "../src/index.ts";
import { TEST_SERVER_KEY, type TestServer } from "../src/provided.ts";
import { createTestDatabase } from "../src/test-database.ts";

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("createTestDatabase", () => {
  it("makes a new database on the run's server each time it is called", async () => {
    const server = inject(TEST_SERVER_KEY);
    const serverUrl = new URL(server.url);
    const first = await createTestDatabase();
    const second = await createTestDatabase();
    expect(first).not.toBe(second);
    for (const url of [first, second].map((each) => new URL(each))) {
      expect(url.host).toBe(serverUrl.host);
      expect(url.pathname.slice(1).startsWith(server.prefix)).toBe(true);
    }
    await query(first, "create table marker (id int)");
    expect(await query(second, "select to_regclass('marker') as found")).toEqual([{ found: null }]);
  });

  it("makes databases for test files that start at the same time", async () => {
    const urls = await Promise.all(Array.from({ length: 6 }, () => createTestDatabase()));
    expect(new Set(urls).size).toBe(6);
    const counts = await Promise.all(urls.map((url) => query<{ n: number }>(url, "select 1 as n")));
    expect(counts.flat()).toEqual(Array.from({ length: 6 }, () => ({ n: 1 })));
  });
});

describe("the global set-up", () => {
  const saved = process.env.PIGEONHOLE_TEST_DATABASE_URL;
  afterEach(() => {
    if (saved === undefined) {
      delete process.env.PIGEONHOLE_TEST_DATABASE_URL;
    } else {
      process.env.PIGEONHOLE_TEST_DATABASE_URL = saved;
    }
  });

  it("uses the server in PIGEONHOLE_TEST_DATABASE_URL and drops only the databases of its run", async () => {
    const existing = await startPostgres();
    try {
      process.env.PIGEONHOLE_TEST_DATABASE_URL = existing.url;
      const provided: TestServer[] = [];
      const teardown = await setup({ provide: (_key, value) => provided.push(value) });
      expect(provided).toHaveLength(1);
      const [run] = provided as [TestServer];
      expect(run.url).toBe(existing.url);

      const ours = await existing.createDatabase(`${run.prefix}a`);
      await existing.createDatabase(`${run.prefix}b`);
      await existing.createDatabase("kept");
      // Still connected when the run ends: the drop disconnects it.
      const client = new pg.Client(ours);
      await client.connect();
      client.on("error", () => {}); // the forced drop ends its session
      await teardown();
      await client.end().catch(() => {});

      const names = await query<{ datname: string }>(
        existing.url,
        "select datname from pg_database where not datistemplate order by datname",
      );
      expect(names.map((row) => row.datname)).toEqual(["kept", "postgres"]);
    } finally {
      await existing.stop();
    }
  });

  it("starts a cluster of its own without PIGEONHOLE_TEST_DATABASE_URL and removes it at the end", async () => {
    delete process.env.PIGEONHOLE_TEST_DATABASE_URL;
    const provided: TestServer[] = [];
    const teardown = await setup({ provide: (_key, value) => provided.push(value) });
    const [run] = provided as [TestServer];
    expect(run.url).not.toBe(inject(TEST_SERVER_KEY).url);
    expect(await query(run.url, "select 1 as one")).toEqual([{ one: 1 }]);
    await teardown();
    await expect(query(run.url, "select 1")).rejects.toThrow(/ECONNREFUSED/);
  });
});
