import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { Agent, get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createTestControl } from "@pigeonhole/test-control";
import { DEFAULT_MIGRATION_TABLE } from "kysely/migration";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { READINESS_ANSWER_WITHIN_MS, READINESS_FRESH_FOR_MS } from "../../src/http/readiness.ts";
import { DEFAULT_TEST_CONTROL_KEY } from "../../src/options/defaults.ts";
import { loadSpecBundle } from "../../src/spec/spec-bundle.ts";
import { isPostgresUrl, openStorage } from "../../src/storage/open-storage.ts";
import { expectedSchemaVersion } from "../../src/storage/schema-version.ts";
import { ON_FREE_PORTS, startCli, TEST_KEYS, waitForOutput } from "../support/cli-process.ts";
import { testControlOf } from "../support/test-control-requests.ts";
import { newTestDatabase, testBackend } from "../support/test-database.ts";
import { startTestServer } from "../support/test-server.ts";

const dir = mkdtempSync(join(tmpdir(), "pigeonhole-ready-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A new database of this run's backend that the test can open beside the server: a SQLite file, not memory. */
const sharedDatabase = async () => (testBackend() === "postgres" ? newTestDatabase() : join(dir, `${randomUUID()}.db`));

/** Runs one statement on `database` beside the server, as an operator's own client would. */
async function execute(database: string, statement: string): Promise<void> {
  if (isPostgresUrl(database)) {
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
    return;
  }
  const sqlite = new DatabaseSync(database, { timeout: 5_000 });
  try {
    sqlite.exec(statement);
  } finally {
    sqlite.close();
  }
}

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A GET with Node's own client, which shows every header of the answer (`Connection` included). */
function getRaw(url: string, options: { agent?: Agent; headers?: Record<string, string> } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    get(url, { agent: options.agent, headers: options.headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text ? JSON.parse(text) : null }),
      );
    }).on("error", reject);
  });
}

const ready = async (url: string) => {
  const { status, body, headers } = await getRaw(`${url}/ready`);
  return { status, body, cacheControl: headers["cache-control"] };
};

/** The CLI's arguments for a database of this run's backend, with the development keys and test control on. */
const cliDatabase = async () =>
  testBackend() === "postgres" ? ["--database", await newTestDatabase(), "--dev-keys"] : ["--memory"];

const MIGRATED_AT = "2026-11-28T08:00:00.000Z";

const AS_INBOX = { authorization: `Bearer ${TEST_KEYS.inbox}` };

describe("GET /ready", () => {
  it("answers 200 on both ports, without a key, and counts against no limit", async () => {
    const { server } = await startTestServer({ limits: { authFailuresPerMinute: 2 } });
    try {
      for (const url of [server.inbox.url, server.forum.url]) {
        for (let probe = 0; probe < 5; probe++) {
          expect(await ready(url)).toEqual({ status: 200, body: { status: "ready" }, cacheControl: "no-store" });
        }
      }
      // Requests without a key are counted from the first: the ten probes were not.
      const keyless = [];
      for (let request = 0; request < 3; request++) {
        keyless.push((await fetch(`${server.inbox.url}/v0/inboxes`)).status);
      }
      expect(keyless).toEqual([401, 401, 429]);
      expect((await ready(server.forum.url)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("is no operation of either API: like /health, it is in neither spec", () => {
    for (const service of ["inbox", "forum"] as const) {
      const paths = Object.keys(loadSpecBundle(service).paths ?? {});
      expect(paths.filter((path) => path === "/ready" || path === "/health")).toEqual([]);
    }
  });

  it("answers 503 `migrations` while the database lacks a migration of this build, and not for a newer one", async () => {
    const database = await sharedDatabase();
    const { server } = await startTestServer({ database });
    const control = testControlOf(server);
    const migrations = DEFAULT_MIGRATION_TABLE;
    const version = await expectedSchemaVersion();
    const probe = async (url: string) => {
      // A result is answered again for a second: past it, the next probe asks the database.
      await control.advance(READINESS_FRESH_FOR_MS);
      return ready(url);
    };
    try {
      expect((await ready(server.inbox.url)).status).toBe(200);
      // Migrated further by a newer build, during a rolling upgrade: this one keeps working on it.
      await execute(database, `insert into ${migrations} (name, "timestamp") values ('9999_newer', '${MIGRATED_AT}')`);
      expect((await probe(server.inbox.url)).status).toBe(200);
      // Behind this build, as a database restored from an older backup would be.
      await execute(database, `delete from ${migrations} where name = '${version}'`);
      for (const url of [server.inbox.url, server.forum.url]) {
        expect(await probe(url)).toMatchObject({ status: 503, body: { status: "unavailable", reason: "migrations" } });
      }
      await execute(database, `insert into ${migrations} (name, "timestamp") values ('${version}', '${MIGRATED_AT}')`);
      expect(await probe(server.inbox.url)).toMatchObject({ status: 200, body: { status: "ready" } });
    } finally {
      await server.close();
    }
  });
});

describe("stopping on SIGTERM", () => {
  it("answers /ready 503 `draining` at once, serves on for the drain delay, and answers the request in flight", async () => {
    const cli = await startCli([...(await cliDatabase()), ...ON_FREE_PORTS, "--drain-delay-ms", "600000"]);
    const keepAlive = new Agent({ keepAlive: true });
    try {
      const control = createTestControl({ baseUrl: cli.inboxUrl, key: DEFAULT_TEST_CONTROL_KEY });
      await control.faults.add({
        target: "request",
        match: { method: "GET", path: "/v0/inboxes" },
        action: { type: "delay", ms: 4_000 },
      });
      const before = await getRaw(`${cli.inboxUrl}/v0/domains`, { agent: keepAlive, headers: AS_INBOX });
      expect(before.headers.connection).toBe("keep-alive");

      const slow = getRaw(`${cli.inboxUrl}/v0/inboxes`, { headers: AS_INBOX });
      // The server has the request: the fault that holds it says so as it applies.
      await waitForOutput(cli, "stderr", /"msg":"fault applied"/);
      cli.child.kill("SIGTERM");
      await waitForOutput(cli, "stderr", /"msg":"draining/);

      for (const url of [cli.inboxUrl, cli.forumUrl]) {
        expect(await ready(url)).toEqual({
          status: 503,
          body: { status: "unavailable", reason: "draining" },
          cacheControl: "no-store",
        });
      }
      // Alive, and still serving: a connection open before the drain ends after its answer, so that its holder
      // reconnects elsewhere.
      expect((await getRaw(`${cli.forumUrl}/health`)).body).toEqual({ status: "ok" });
      const during = await getRaw(`${cli.inboxUrl}/v0/domains`, { agent: keepAlive, headers: AS_INBOX });
      expect(during.status).toBe(200);
      expect(during.headers.connection).toBe("close");
      // One opened during the drain is kept, so that a balancer still sending here reuses it rather than opening more.
      const opened = new Agent({ keepAlive: true });
      const fresh = await getRaw(`${cli.inboxUrl}/v0/domains`, { agent: opened, headers: AS_INBOX });
      opened.destroy();
      expect(fresh.headers.connection).toBe("keep-alive");

      const answered = await slow;
      expect(answered.status).toBe(200);
      expect(answered.body).toHaveProperty("inboxes");
      // It was in flight all along: taken before the signal, answered during the drain.
      expect(answered.headers.connection).toBe("close");
    } finally {
      keepAlive.destroy();
      // A second signal stops at once rather than after the drain delay.
      cli.child.kill("SIGTERM");
      await cli.exited;
    }
  });

  it("without a drain delay, stops accepting at once and still answers the request in flight", async () => {
    const cli = await startCli([...(await cliDatabase()), ...ON_FREE_PORTS]);
    const control = createTestControl({ baseUrl: cli.inboxUrl, key: DEFAULT_TEST_CONTROL_KEY });
    await control.faults.add({
      target: "request",
      match: { method: "GET", path: "/v0/inboxes" },
      action: { type: "delay", ms: 2_000 },
    });
    const slow = getRaw(`${cli.inboxUrl}/v0/inboxes`, { headers: AS_INBOX });
    await waitForOutput(cli, "stderr", /"msg":"fault applied"/);
    cli.child.kill("SIGTERM");
    const answered = await slow;
    expect(answered.status).toBe(200);
    expect(answered.headers.connection).toBe("close");
    // The ports closed as the stop began: only the request in flight was still answered.
    await expect(getRaw(`${cli.inboxUrl}/ready`)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    expect(await cli.exited).toEqual({ code: 0, signal: null });
  });
});

/**
 * How often the database has read the migrations' table since it was created: the readiness check's query reads it,
 * and so does a start's migration step. Counted by PostgreSQL itself (`pg_stat_user_tables`), once no connection of
 * a server is left: a backend hands its counts in as it ends.
 */
async function migrationTableReads(database: string): Promise<number> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    await expect
      .poll(
        async () =>
          (
            await client.query<{ others: number }>(
              "select count(*)::int as others from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
            )
          ).rows[0]?.others,
        { timeout: 10_000 },
      )
      .toBe(0);
    const { rows } = await client.query<{ reads: number }>(
      "select (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::int as reads from pg_stat_user_tables where relname = $1",
      [DEFAULT_MIGRATION_TABLE],
    );
    return rows[0]?.reads ?? 0;
  } finally {
    await client.end();
  }
}

/** A probe on a connection of its own, as many balancers' probes arrive: its status and how long it took. */
async function timedProbe(url: string): Promise<{ status: number; ms: number }> {
  const agent = new Agent({ keepAlive: false });
  const startedAt = performance.now();
  try {
    const { status } = await getRaw(`${url}/ready`, { agent });
    return { status, ms: performance.now() - startedAt };
  } finally {
    agent.destroy();
  }
}

describe("a flood of probes", () => {
  const PROBES = 500;

  it.runIf(testBackend() === "postgres")(
    `answers ${PROBES} concurrent probes at once, asking the database about once a second of them`,
    async () => {
      const database = await newTestDatabase();
      /** Starts a server on the database, lets `during` probe it, stops it; answers the database's reads meanwhile. */
      const readsOfOneRun = async (during: (url: string) => Promise<void>) => {
        const before = await migrationTableReads(database);
        const cli = await startCli(["--database", database, "--dev-keys", ...ON_FREE_PORTS]);
        try {
          await during(cli.inboxUrl);
        } finally {
          cli.child.kill("SIGTERM");
          await cli.exited;
        }
        return (await migrationTableReads(database)) - before;
      };
      // Migrated first, so that each start below reads the table the same number of times.
      await (await openStorage(database)).close();
      const ofAStart = await readsOfOneRun(async () => {});

      let probes: { status: number; ms: number }[] = [];
      let floodMs = 0;
      const ofAFlood = await readsOfOneRun(async (url) => {
        const startedAt = performance.now();
        probes = await Promise.all(Array.from({ length: PROBES }, () => timedProbe(url)));
        floodMs = performance.now() - startedAt;
      });

      expect(probes.filter(({ status }) => status !== 200 && status !== 503)).toEqual([]);
      // Each within the 2 s a check may take, and some for this machine to serve 500 connections at once.
      expect(Math.max(...probes.map(({ ms }) => ms))).toBeLessThan(READINESS_ANSWER_WITHIN_MS + 3_000);
      const checks = ofAFlood - ofAStart;
      // At least the one the first probe started; at most one per second of probing, and the one it began with.
      expect(checks).toBeGreaterThanOrEqual(1);
      expect(checks).toBeLessThanOrEqual(Math.ceil(floodMs / READINESS_FRESH_FOR_MS) + 1);
    },
    60_000,
  );
});
