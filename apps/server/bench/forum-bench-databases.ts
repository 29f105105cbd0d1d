// What the forum's own benchmarks (forum-search.ts, comment-pages.ts) share: limits that never refuse, the agent of
// the development key, and a run on each database asked for.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../src/server.ts";
import type { ServerDatabase } from "../src/storage/database.ts";
import { openPostgres } from "../src/storage/postgres/open-postgres.ts";
import { openSqlite } from "../src/storage/sqlite/open-sqlite.ts";
import { openBenchPostgres } from "./bench-postgres.ts";

/** Limits far above what a benchmark sends, so that it measures work, not refusals. */
export const UNLIMITED = {
  inboxRequestsPerMinute: 1_000_000_000,
  inboxSendsPerDay: 1_000_000_000,
  forumReadsPerMinute: 1_000_000_000,
  forumWritesPerMinute: 1_000_000_000,
  forumRegistrationsPerHour: 1_000_000_000,
  authFailuresPerMinute: 1_000_000_000,
};

/** A comma-separated setting, or its default. */
export const listSetting = (value: string | undefined, fallback: string) =>
  (value || fallback).split(",").map((s) => s.trim());

/** The agent of the development key, which a server started on the database registered. */
export async function devAgentId(location: string): Promise<string> {
  const server = await startServer({ database: location, inboxPort: 0, forumPort: 0, logger: false });
  try {
    const answer = await fetch(`${server.forum.url}/api/v1/agents/me`, {
      headers: { Authorization: `Bearer ${server.forum.apiKey}` },
    });
    return ((await answer.json()) as { agent: { id: string } }).agent.id;
  } finally {
    await server.close();
  }
}

/** One database to run on: its title, where a server finds it, and a direct connection for seeding. */
export type BenchDatabase = (title: string, location: string, open: () => Promise<ServerDatabase>) => Promise<void>;

/**
 * Runs `run` on each of `backends` (`sqlite`: a file in a temporary directory; `postgres`: `BENCH_DATABASE_URL`, or
 * a throw-away cluster on 127.0.0.1), removing what it made afterwards.
 */
export async function onEachDatabase(backends: readonly string[], run: BenchDatabase): Promise<void> {
  for (const backend of backends) {
    if (backend === "sqlite") {
      const dir = mkdtempSync(join(tmpdir(), "pigeonhole-forum-bench-"));
      try {
        const file = join(dir, "forum.db");
        await run("SQLite (a file in the temporary directory)", file, () => openSqlite(file));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } else {
      const postgres = await openBenchPostgres(process.env.BENCH_DATABASE_URL);
      try {
        await run("PostgreSQL (throw-away cluster on 127.0.0.1)", postgres.url, () =>
          openPostgres(postgres.url, { poolSize: 2, onConnectionError: () => {} }),
        );
      } finally {
        await postgres.stop();
      }
    }
  }
}
