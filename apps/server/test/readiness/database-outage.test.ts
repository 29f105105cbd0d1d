import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { PostgresCluster } from "@pigeonhole/postgres-testing";
import { startPostgres } from "@pigeonhole/postgres-testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READINESS_FRESH_FOR_MS } from "../../src/http/readiness.ts";
import type { ServerLogger } from "../../src/logger.ts";
import { startServer } from "../../src/server.ts";
import { FIRST_RETRY_DELAY_MS, MAX_RETRY_DELAY_MS } from "../../src/storage/database-wait.ts";
import { CLI_ENTRY, ON_FREE_PORTS } from "../support/cli-process.ts";
import type { LoggedLine } from "../support/recording-logger.ts";
import { recordingLogger } from "../support/recording-logger.ts";
import { testControlOf } from "../support/test-control-requests.ts";
import { startTestServer } from "../support/test-server.ts";

// A PostgreSQL of this file's own, which it stops and starts again; its superuser is trusted, and the application's
// role must give its password, as in production.
const APP_ROLE = "pigeonhole_app";
const APP_PASSWORD = "right-password";
const WAITING = "database not reachable yet; trying again";

const dir = mkdtempSync(join(tmpdir(), "pigeonhole-outage-"));
let cluster: PostgresCluster;

/** Runs one statement as the cluster's superuser. */
async function asSuperuser(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new database that the application's role owns, as the deployment guide makes it: its address as that role. */
async function appDatabase(): Promise<string> {
  const database = await cluster.createDatabase();
  await asSuperuser(`alter database ${new URL(database).pathname.slice(1)} owner to ${APP_ROLE}`);
  return asApp(database);
}

beforeAll(async () => {
  // The cluster's account reads the rules from here.
  chmodSync(dir, 0o755);
  const hba = join(dir, "pg_hba.conf");
  const rules = [
    "local all all trust",
    "host all postgres 127.0.0.1/32 trust",
    "host all all 127.0.0.1/32 scram-sha-256",
  ];
  writeFileSync(hba, `${rules.join("\n")}\n`, { mode: 0o644 });
  cluster = await startPostgres({ settings: { hba_file: hba } });
  await asSuperuser(`create role ${APP_ROLE} login password '${APP_PASSWORD}'`);
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The address of `database` on the cluster as the application's role, with `password`. */
const asApp = (database: string, password = APP_PASSWORD) => {
  const url = new URL(database);
  url.username = APP_ROLE;
  url.password = password;
  return url.toString();
};

/** Runs the CLI to its end: its exit status and what it wrote. */
const runToExit = (args: string[]) =>
  promisify(execFile)(process.execPath, [CLI_ENTRY, ...args], {
    encoding: "utf8",
    env: { ...process.env, NODE_NO_WARNINGS: "1" },
    timeout: 30_000,
  }).then(
    ({ stdout, stderr }) => ({ status: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ ...error, status: error.code }),
  );

/** What the CLI said on stderr, each JSON line as its message and error, for reading as text. */
const said = (stderr: string) =>
  stderr
    .split("\n")
    .map((line) => {
      if (!line.startsWith("{")) {
        return line;
      }
      const { msg, error } = JSON.parse(line) as { msg: string; error?: string };
      return error === undefined ? msg : `${msg}: ${error}`;
    })
    .join("\n");

const startArgs = (database: string) => ["--database", database, "--no-dev-keys", ...ON_FREE_PORTS];

/** A recording logger that also tells of the first line `msg` names. */
function loggerAwaiting(msg: string): { logger: ServerLogger; lines: LoggedLine[]; logged: Promise<void> } {
  const recording = recordingLogger();
  let heard: () => void = () => {};
  const logged = new Promise<void>((resolve) => {
    heard = resolve;
  });
  const warn: ServerLogger["warn"] = (message, fields) => {
    recording.logger.warn(message, fields);
    if (message === msg) {
      heard();
    }
  };
  return { logger: { ...recording.logger, warn }, lines: recording.lines, logged };
}

describe("PostgreSQL going away and coming back", () => {
  it("answers /ready 503 `database` while PostgreSQL is down, and 200 once it is back", async () => {
    const { logger, lines } = recordingLogger();
    const { server } = await startTestServer({ database: await cluster.createDatabase(), logger });
    const control = testControlOf(server);
    const ready = async () => {
      const response = await fetch(`${server.inbox.url}/ready`);
      return { status: response.status, body: await response.json() };
    };
    try {
      expect(await ready()).toEqual({ status: 200, body: { status: "ready" } });
      await cluster.pause();
      // Past the second a result is answered again for, the next probe asks the database.
      await control.advance(READINESS_FRESH_FOR_MS);
      expect(await ready()).toEqual({ status: 503, body: { status: "unavailable", reason: "database" } });
      expect((await fetch(`${server.forum.url}/ready`)).status).toBe(503);
      await cluster.resume();
      await control.advance(READINESS_FRESH_FOR_MS);
      expect(await ready()).toEqual({ status: 200, body: { status: "ready" } });
      const changes = lines.filter(({ msg }) => msg === "not ready" || msg === "ready");
      expect(changes).toEqual([
        expect.objectContaining({ level: "warn", msg: "not ready", reason: "database" }),
        expect.objectContaining({ level: "info", msg: "ready" }),
      ]);
    } finally {
      await cluster.resume();
      await server.close();
    }
  });
});

describe("starting before PostgreSQL is up", () => {
  it("waits with backoff, logging each attempt, and serves once PostgreSQL is up", async () => {
    const database = await appDatabase();
    await cluster.pause();
    const { logger, lines, logged } = loggerAwaiting(WAITING);
    const starting = startServer({ database, inboxPort: 0, forumPort: 0, devKeys: false, logger });
    await logged;
    await cluster.resume();
    const server = await starting;
    try {
      expect(await (await fetch(`${server.inbox.url}/ready`)).json()).toEqual({ status: "ready" });
      const waits = lines.filter(({ msg }) => msg === WAITING);
      expect(waits[0]).toMatchObject({ level: "warn", attempt: 1, retry_in_ms: FIRST_RETRY_DELAY_MS });
      expect(waits[0]?.error).toMatch(/ECONNREFUSED/);
      // Never the password.
      expect(waits[0]?.database).toBe(
        `postgres://${APP_ROLE}:***@127.0.0.1:${cluster.port}/${new URL(database).pathname.slice(1)}`,
      );
      expect(waits.map(({ attempt }) => attempt)).toEqual(waits.map((_, index) => index + 1));
      expect(waits.map(({ retry_in_ms }) => retry_in_ms)).toEqual(
        waits.map((_, index) => Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_DELAY_MS * 2 ** index)),
      );
      expect(lines).toContainEqual(expect.objectContaining({ msg: "server started" }));
    } finally {
      await cluster.resume();
      await server.close();
    }
  });

  it("gives up after --database-wait-ms with a clear error and status 1; with 0, at the first attempt", async () => {
    const database = await appDatabase();
    await cluster.pause();
    try {
      const bounded = await runToExit([...startArgs(database), "--database-wait-ms", "600"]);
      expect(bounded.status).toBe(1);
      expect(bounded.stdout).toBe("");
      expect(bounded.stderr).toContain(WAITING);
      expect(bounded.stderr).toMatch(
        /PostgreSQL at postgres:\/\/pigeonhole_app:\*\*\*@127\.0\.0\.1:\d+\/\w+ is not reachable after waiting/,
      );
      expect(bounded.stderr).not.toContain(APP_PASSWORD);

      const atOnce = await runToExit([...startArgs(database), "--database-wait-ms", "0"]);
      expect(atOnce.status).toBe(1);
      expect(atOnce.stderr).not.toContain(WAITING);
      expect(atOnce.stderr).toMatch(/is not reachable: connect ECONNREFUSED/);
    } finally {
      await cluster.resume();
    }
  });

  it("fails at once, without waiting, when PostgreSQL refuses the login or has no such database", async () => {
    const database = await cluster.createDatabase();
    // The default wait (a minute) is in force: only not waiting at all ends these within the test's time.
    const wrongPassword = await runToExit(startArgs(asApp(database, "wrong-password")));
    expect(wrongPassword.status).toBe(1);
    expect(wrongPassword.stderr).not.toContain(WAITING);
    expect(said(wrongPassword.stderr)).toContain(
      `refused the login: password authentication failed for user "${APP_ROLE}". Check the user and password`,
    );
    expect(wrongPassword.stderr).not.toContain("wrong-password");

    const missing = await runToExit(startArgs(asApp(database.replace(/\/\w+$/, "/no_such_database"))));
    expect(missing.status).toBe(1);
    expect(missing.stderr).not.toContain(WAITING);
    expect(said(missing.stderr)).toContain('has no such database: database "no_such_database" does not exist');
  });
});
