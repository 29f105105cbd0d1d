import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createTestDatabase } from "@pigeonhole/postgres-testing/vitest";
import { createTestControl } from "@pigeonhole/test-control";
import { afterAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/ids.ts";
import { InvalidOptionError, type Server, type ServerOptions, startServer } from "../../src/index.ts";
import { resolveOptions } from "../../src/options.ts";
import { CLI_ENTRY } from "../support/cli-process.ts";
import { testBackend } from "../support/test-database.ts";
import { expectData, forumClient, GENEROUS_LIMITS, inboxClient } from "../support/test-server.ts";

// Production defaults: what a server exposes when nobody asked, and how keys are removed. Each test starts servers
// on 127.0.0.1 only; a non-loopback --host is refused before anything binds.

const dir = mkdtempSync(join(tmpdir(), "pigeonhole-production-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database that servers and CLI processes share: PostgreSQL of the run, or a SQLite file. */
const sharedDatabase = async () =>
  testBackend() === "postgres" ? createTestDatabase() : join(dir, `${randomUUID()}.db`);

const runFile = promisify(execFile);

/** Tests that run the CLI several times: each run starts Node and opens the database. */
const CLI_TEST_TIMEOUT_MS = 180_000;

/** Runs the CLI to its end; answers its exit code and output. */
async function cli(args: string[], env: Record<string, string> = {}) {
  return runFile(process.execPath, [CLI_ENTRY, ...args], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, NODE_NO_WARNINGS: "1", ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

const onLoopback = (database: string, more: ServerOptions = {}) =>
  startServer({ database, inboxPort: 0, forumPort: 0, logger: false, ...more });

/** The status of an authenticated request to each API. */
const inboxStatus = async (server: Server<string | null>, key: string) =>
  (await fetch(`${server.inbox.url}/v0/inboxes`, { headers: { Authorization: `Bearer ${key}` } })).status;
const forumStatus = async (server: Server<string | null>, key: string) =>
  (await fetch(`${server.forum.url}/api/v1/agents/me`, { headers: { Authorization: `Bearer ${key}` } })).status;

describe("development keys and test control on an interface other than loopback", () => {
  it(
    "are refused when on by default, with what to do, before anything binds",
    async () => {
      for (const host of ["0.0.0.0", "::", "192.0.2.10", "example.com"]) {
        expect(() => resolveOptions({ host }, {}), host).toThrow(InvalidOptionError);
        expect(() => resolveOptions({ host, devKeys: false, testControl: { key: "k" } }, {})).not.toThrow();
      }
      const refused = await cli([
        "--memory",
        "--host",
        "0.0.0.0",
        "--inbox-port",
        "0",
        "--forum-port",
        "0",
        "--no-smtp",
      ]);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe("");
      expect(refused.stderr).toContain("0.0.0.0 is not a loopback address");
      expect(refused.stderr).toContain("--no-dev-keys");
      expect(refused.stderr).toContain("pigeonhole-server keys create");
      expect(refused.stderr).toContain("--dev-keys");
      expect(refused.stderr).toContain("--test-control");
      // The API says the same: startServer rejects before opening anything.
      await expect(startServer({ host: "0.0.0.0", database: ":memory:", logger: false })).rejects.toThrow(
        /--no-dev-keys/,
      );
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it("keep today's defaults on loopback: 127.0.0.0/8, ::1 and localhost", () => {
    for (const host of ["127.0.0.1", "127.8.9.10", "::1", "localhost", "::ffff:127.0.0.1"]) {
      const resolved = resolveOptions({ host }, {});
      expect(resolved.devKeys, host).not.toBeNull();
      expect(resolved.testControl, host).not.toBeNull();
      expect(resolved.exposedOnNetwork, host).toEqual([]);
    }
  });

  it("are on when asked for by name, each of them, and said so to be warned of", () => {
    // Test control follows the development keys by default: asking for the keys alone does not expose it.
    expect(() => resolveOptions({ host: "0.0.0.0", devKeys: {} }, {})).toThrow(/test control/);
    expect(resolveOptions({ host: "0.0.0.0", devKeys: {}, testControl: {} }, {}).exposedOnNetwork).toEqual([
      "development keys",
      "test control",
    ]);
    expect(resolveOptions({ host: "0.0.0.0", devKeys: {}, testControl: false }, {}).exposedOnNetwork).toEqual([
      "development keys",
    ]);
    const production = resolveOptions({ host: "0.0.0.0", devKeys: false }, {});
    expect(production).toMatchObject({ devKeys: null, testControl: null, exposedOnNetwork: [] });
  });
});

describe("turning the development keys off", () => {
  it("removes them: after a restart with devKeys false they answer 401, and the dev agent's posts stay", async () => {
    const database = await sharedDatabase();
    const devKeys = { inbox: `own-inbox-dev-${randomUUID()}`, forum: `own-forum-dev-${randomUUID()}` };
    const local = await onLoopback(database, { devKeys });
    const inbox = inboxClient(local.inbox.url, devKeys.inbox);
    expectData(await inbox.POST("/v0/inboxes", { body: { username: "dev-inbox" } }));
    const { post } = expectData(
      await forumClient(local.forum.url, devKeys.forum).POST("/api/v1/posts", {
        body: { title: "Written with the dev key", content: "kept" },
      }),
    );
    const created = await local.createApiKey("inbox");
    const agent = await local.createApiKey("forum", { name: "keeps-its-key" });
    await local.close();

    const production = await onLoopback(database, { devKeys: false });
    try {
      expect(await inboxStatus(production, devKeys.inbox)).toBe(401);
      expect(await forumStatus(production, devKeys.forum)).toBe(401);
      // Keys created on purpose stay, and the forum keeps what the development agent wrote.
      expect(await inboxStatus(production, created)).toBe(200);
      const kept = expectData(
        await forumClient(production.forum.url, agent).GET("/api/v1/posts/{post_id}", {
          params: { path: { post_id: post.id } },
        }),
      );
      expect(kept.post.title).toBe("Written with the dev key");
    } finally {
      await production.close();
    }
  });
});

describe("keys list and keys revoke", () => {
  it(
    "lists every key by id, service, pod or agent, creation and kind, never the key or its hash",
    async () => {
      const database = await sharedDatabase();
      const devKeys = { inbox: `dev-inbox-${randomUUID()}`, forum: `dev-forum-${randomUUID()}` };
      const server = await onLoopback(database, { devKeys });
      await server.close();
      const [inbox, forum] = await Promise.all([
        cli(["keys", "create", "--service", "inbox", "--database", database]),
        cli(["keys", "create", "--service", "forum", "--name", "listed", "--database", database]),
      ]);
      const keys = [devKeys.inbox, devKeys.forum, inbox.stdout.trim(), forum.stdout.trim()];

      const [listed, forumOnly] = await Promise.all([
        cli(["keys", "list", "--database", database]),
        cli(["keys", "list", "--service", "forum", "--database", database]),
      ]);
      expect(listed.code).toBe(0);
      const lines = listed.stdout.trim().split("\n");
      expect(lines[0]?.split(/\s+/)).toEqual(["ID", "SERVICE", "POD/AGENT", "CREATED", "DEV"]);
      const rows = lines.slice(1).map((line) => line.split(/\s+/));
      expect(rows).toHaveLength(4);
      for (const key of keys) {
        expect(listed.stdout).not.toContain(key);
        expect(listed.stdout).not.toContain(sha256Hex(key));
        expect(rows.map((row) => row[0])).toContain(`key_${sha256Hex(key).slice(0, 16)}`);
      }
      expect(rows.filter((row) => row[1] === "forum").map((row) => [row[2], row[4]])).toEqual(
        expect.arrayContaining([
          ["pigeonhole-dev", "yes"],
          ["listed", "no"],
        ]),
      );
      for (const row of rows.filter((row) => row[1] === "inbox")) {
        expect(row[2]).toMatch(/^[0-9a-f-]{36}$/);
        expect(row[3]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      }

      expect(forumOnly.stdout.trim().split("\n").slice(1)).toHaveLength(2);
      expect(forumOnly.stdout).not.toMatch(/\binbox\b/);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    "revokes by id or by the key itself; every running instance refuses it within a second of its clock",
    async () => {
      const database = await sharedDatabase();
      // Two instances where several can share the database; on SQLite one server, with the CLI as the other process.
      const instances = await Promise.all(
        (testBackend() === "postgres" ? [1, 2] : [1]).map(() => onLoopback(database, { devKeys: {} })),
      );
      try {
        const [inboxKey, forumKey] = (
          await Promise.all([
            cli(["keys", "create", "--service", "inbox", "--database", database]),
            cli(["keys", "create", "--service", "forum", "--database", database]),
          ])
        ).map((created) => created.stdout.trim()) as [string, string];
        // Every instance has checked, and so cached, both keys, at an instant its frozen clock keeps.
        for (const server of instances) {
          await clockOf(server).set({ frozen: true });
          expect(await inboxStatus(server, inboxKey)).toBe(200);
          expect(await forumStatus(server, forumKey)).toBe(200);
        }
        const [byId, byKey] = await Promise.all([
          cli(["keys", "revoke", `key_${sha256Hex(inboxKey).slice(0, 16)}`, "--database", database]),
          cli(["keys", "revoke", forumKey, "--database", database]),
        ]);
        expect(byId).toMatchObject({ code: 0, stdout: expect.stringContaining("Revoked") });
        expect(byKey.code).toBe(0);
        expect(byKey.stdout).not.toContain(forumKey);

        // Honoured while the instance's clock stands still (the cache), refused once it has moved a second at most.
        for (const server of instances) {
          const inboxMs = await clockMsUntilRefused(server, () => inboxStatus(server, inboxKey));
          expect(inboxMs).toBeGreaterThan(0);
          expect(inboxMs).toBeLessThanOrEqual(1_000);
          // The forum key was cached at the same instant: the clock has moved past it already.
          expect(await clockMsUntilRefused(server, () => forumStatus(server, forumKey))).toBe(0);
        }
        const again = await cli(["keys", "revoke", forumKey, "--database", database]);
        expect(again.code).toBe(1);
        expect(again.stderr).toContain("No key");
        expect(again.stderr).not.toContain(forumKey);
      } finally {
        await Promise.all(instances.map((server) => server.close()));
      }
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    "rotates a pod's key with no failed request: a second key for the pod, the client switched, the old one revoked",
    async () => {
      const database = await sharedDatabase();
      const server = await onLoopback(database, {
        devKeys: false,
        testControl: { key: `control-${randomUUID()}` },
        limits: GENEROUS_LIMITS,
      });
      try {
        const oldKey = (await cli(["keys", "create", "--service", "inbox", "--database", database])).stdout.trim();
        await clockOf(server).set({ frozen: true });
        const { inbox_id } = expectData(
          await inboxClient(server.inbox.url, oldKey).POST("/v0/inboxes", { body: { username: "rotated" } }),
        );
        const podId = (await cli(["keys", "list", "--database", database])).stdout
          .split("\n")
          .find((line) => line.startsWith(`key_${sha256Hex(oldKey).slice(0, 16)}`))
          ?.split(/\s+/)[2];
        expect(podId).toMatch(/^[0-9a-f-]{36}$/);

        // A client keeps reading its inbox, with whichever key it has been given, through the whole rotation.
        let currentKey = oldKey;
        const answers: { key: string; status: number }[] = [];
        let rotating = true;
        const client = (async () => {
          // Bounded: at most 50,000 requests, and 5 once the rotation is over.
          for (let after = 0; answers.length < 50_000 && after < 5; after += rotating ? 0 : 1) {
            const key = currentKey;
            const answer = await fetch(`${server.inbox.url}/v0/inboxes/${encodeURIComponent(inbox_id)}`, {
              headers: { Authorization: `Bearer ${key}` },
            });
            answers.push({ key, status: answer.status });
            await answer.arrayBuffer();
          }
        })();
        const created = await cli([
          "keys",
          "create",
          "--service",
          "inbox",
          "--pod",
          podId ?? "",
          "--database",
          database,
        ]);
        expect(created.code).toBe(0);
        currentKey = created.stdout.trim();
        const revoked = await cli(["keys", "revoke", oldKey, "--database", database]);
        expect(revoked.code).toBe(0);
        rotating = false;
        await client;
        expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
        // Both keys were used, the new one through the revocation of the old.
        expect(answers.filter((answer) => answer.key === oldKey).length).toBeGreaterThan(0);
        expect(answers.filter((answer) => answer.key === currentKey).length).toBeGreaterThanOrEqual(5);
        const refusedAfterMs = await clockMsUntilRefused(server, () => inboxStatus(server, oldKey));
        expect(refusedAfterMs).toBeGreaterThan(0);
        expect(refusedAfterMs).toBeLessThanOrEqual(1_000);
        expect(await inboxStatus(server, currentKey)).toBe(200);
      } finally {
        await server.close();
      }
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    "refuses a pod no key has, rather than creating a new one",
    async () => {
      const database = await sharedDatabase();
      await (await onLoopback(database, { devKeys: false })).close();
      const refused = await cli([
        "keys",
        "create",
        "--service",
        "inbox",
        "--pod",
        randomUUID(),
        "--database",
        database,
      ]);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe("");
      expect(refused.stderr).toContain("keys list");
    },
    CLI_TEST_TIMEOUT_MS,
  );
});

/** The test-control clock of `server`. */
function clockOf(server: Server<string | null>) {
  const control = server.testControl;
  if (!control) {
    throw new Error("These servers run with test control.");
  }
  return createTestControl({ baseUrl: control.baseUrl, key: control.key }).clock;
}

/**
 * Moves `server`'s clock (frozen beforehand, so that only these moves count) forward 100 ms at a time until `status`
 * answers 401, and answers how far it moved. The server's own clock bounds how long a revoked key is honoured,
 * whatever the machine's speed; a bounded loop.
 */
async function clockMsUntilRefused(server: Server<string | null>, status: () => Promise<number>): Promise<number> {
  const clock = clockOf(server);
  for (let moved = 0; moved <= 2_000; moved += 100) {
    if ((await status()) === 401) {
      return moved;
    }
    await clock.advance(100);
  }
  return Number.POSITIVE_INFINITY;
}
