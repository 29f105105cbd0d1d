// Throughput and latency of the server's main operations, next to a trivial Hono handler as the ceiling.
// Usage: pnpm --filter @pigeonhole/server bench  (BENCH_SECONDS=5 BENCH_CONNECTIONS=10 by default)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { isoTimestamp, systemClock } from "../clock.ts";
import { DEFAULT_COMMUNITY } from "../forum/default-community.ts";
import { hotRank } from "../forum/hot-rank.ts";
import { newUuid } from "../ids.ts";
import { createApiKeys } from "../keys/api-keys.ts";
import { registerKey } from "../keys/register-key.ts";
import { openDatabase } from "../storage/database.ts";
import { SqliteForumRepository } from "../storage/forum-repository.ts";
import { SqliteKeyRepository } from "../storage/key-repository.ts";
import { runCli, TEST_KEYS } from "../testing/cli-process.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SEEDED_POSTS = Number(process.env.BENCH_POSTS ?? 10_000);

const out = (line: string) => process.stdout.write(`${line}\n`);

async function startCeiling(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL("./ceiling-server.ts", import.meta.url))]);
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once("exit", (code) => reject(new Error(`The ceiling server exited with ${code}.`)));
  });
  return { url, stop: () => child.kill("SIGTERM") };
}

/** Runs `count` calls with at most `parallel` at a time. */
async function pool(count: number, parallel: number, call: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        await call(next++);
      }
    }),
  );
}

async function json<T>(response: Promise<Response>): Promise<T> {
  const answer = await response;
  if (!answer.ok) {
    throw new Error(`${answer.status} ${await answer.text()}`);
  }
  return (await answer.json()) as T;
}

interface Scenario {
  name: string;
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

async function measure(scenario: Scenario) {
  const result = await autocannon({
    url: scenario.url,
    method: scenario.method ?? "GET",
    headers: scenario.headers,
    body: scenario.body,
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) {
    throw new Error(
      `${scenario.name}: ${failures} failed requests (non-2xx ${result.non2xx}, errors ${result.errors}).`,
    );
  }
  return { name: scenario.name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/**
 * Writes the posts straight into the database file before the server starts, over ten days and with votes from
 * many agents, so that `hot` has real scores to rank (over HTTP each key is a single agent).
 */
async function seedPosts(database: string): Promise<string[]> {
  const db = await openDatabase(database);
  try {
    const apiKeys = createApiKeys(new SqliteKeyRepository(db), systemClock);
    const forumRepository = new SqliteForumRepository(db);
    const { owner } = await registerKey({ apiKeys, forumRepository, clock: systemClock }, "forum", {
      key: TEST_KEYS.forum,
    });
    const now = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < SEEDED_POSTS; i++) {
      const createdAt = now - Math.floor(((SEEDED_POSTS - i) / SEEDED_POSTS) * 10 * 86_400_000);
      const post = await forumRepository.createPost({
        postId: newUuid(),
        tenantId: owner.tenantId,
        communityId: DEFAULT_COMMUNITY.id,
        authorId: owner.tenantId,
        title: `Post ${i}`,
        content: `Seeded post number ${i}.`,
        url: null,
        hotRank: hotRank(0, 0, createdAt),
        createdAt: isoTimestamp(createdAt),
      });
      ids.push(post.id);
      for (let v = 0; v < (i % 10 === 0 ? i % 37 : 0); v++) {
        await forumRepository.vote(
          owner.tenantId,
          post.id,
          newUuid(),
          v % 4 === 0 ? "down" : "up",
          post.created_at,
          (up, down, at) => hotRank(up, down, Date.parse(at)),
        );
      }
    }
    return ids;
  } finally {
    await db.destroy();
  }
}

const dir = mkdtempSync(join(tmpdir(), "pigeonhole-bench-"));
const database = join(dir, "bench.db");
out(`Seeding ${SEEDED_POSTS} posts...`);
const seeded = performance.now();
const postIds = await seedPosts(database);
out(`Seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s.`);
const ceiling = await startCeiling();
const server = await runCli([
  "--db",
  database,
  "--inbox-port",
  "0",
  "--forum-port",
  "0",
  "--quiet",
  "--inbox-requests-per-minute",
  "100000000",
  "--inbox-sends-per-day",
  "100000000",
  "--forum-reads-per-minute",
  "100000000",
  "--forum-writes-per-minute",
  "100000000",
]);
try {
  const forumHeaders = { Authorization: `Bearer ${TEST_KEYS.forum}`, "Content-Type": "application/json" };
  const inboxHeaders = { Authorization: `Bearer ${TEST_KEYS.inbox}`, "Content-Type": "application/json" };
  out("Seeding 100 inboxes...");
  await pool(100, 16, async (i) => {
    await json(
      fetch(`${server.inboxUrl}/v0/inboxes`, {
        method: "POST",
        headers: inboxHeaders,
        body: JSON.stringify({ username: `bench-${i}` }),
      }),
    );
  });
  out(`Each scenario: ${SECONDS} s, ${CONNECTIONS} connections, 127.0.0.1.`);
  out("");

  const post = postIds[Math.floor(postIds.length / 2)];
  const scenarios: Scenario[] = [
    { name: "list posts (hot, 25 of 10k)", url: `${server.forumUrl}/api/v1/posts?sort=hot`, headers: forumHeaders },
    { name: "get post", url: `${server.forumUrl}/api/v1/posts/${post}`, headers: forumHeaders },
    {
      name: "create comment",
      url: `${server.forumUrl}/api/v1/posts/${post}/comments`,
      method: "POST",
      headers: forumHeaders,
      body: JSON.stringify({ content: "A benchmark comment." }),
    },
    { name: "list inboxes (20 of 100)", url: `${server.inboxUrl}/v0/inboxes`, headers: inboxHeaders },
    {
      name: "send message",
      url: `${server.inboxUrl}/v0/inboxes/bench-0%40pigeonhole.test/messages`,
      method: "POST",
      headers: inboxHeaders,
      body: JSON.stringify({ to: "someone@example.com", subject: "Benchmark", text: "Hello from the benchmark." }),
    },
  ];
  // The ceiling is measured right before each scenario, so both see the same load on the machine.
  const row = (name: string, rps: number, p50: number, p99: number, share: string) =>
    out(
      `${name.padEnd(34)}${rps.toFixed(0).padStart(9)}${String(p50).padStart(8)}${String(p99).padStart(8)}${share.padStart(12)}`,
    );
  out(
    `${"scenario".padEnd(34)}${"req/s".padStart(9)}${"p50 ms".padStart(8)}${"p99 ms".padStart(8)}${"of ceiling".padStart(12)}`,
  );
  for (const scenario of scenarios) {
    const top = await measure({ name: "ceiling", url: `${ceiling.url}/ceiling` });
    const result = await measure(scenario);
    row("  ceiling: trivial Hono handler", top.rps, top.p50, top.p99, "100.0 %");
    row(result.name, result.rps, result.p50, result.p99, `${((result.rps / top.rps) * 100).toFixed(1)} %`);
  }
} finally {
  ceiling.stop();
  server.child.kill("SIGTERM");
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
}
