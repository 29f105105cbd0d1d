import { createTestDatabase } from "@pigeonhole/postgres-testing/vitest";
import type { CliProcess } from "../support/cli-process.ts";
import { ON_FREE_PORTS, startCli, TEST_KEYS } from "../support/cli-process.ts";

export { TEST_KEYS };

/** Limits high enough that a test meets only the one it sets. */
const GENEROUS = [
  "--inbox-requests-per-minute",
  "1000000",
  "--inbox-sends-per-day",
  "1000000",
  "--forum-reads-per-minute",
  "1000000",
  "--forum-writes-per-minute",
  "1000000",
  "--forum-registrations-per-hour",
  "1000000",
];

/** Server processes on one PostgreSQL database of their own, stopped (killed if need be) by `stop`. */
export interface Instances {
  databaseUrl: string;
  all: CliProcess[];
  /** Starts one more instance on the same database. */
  add(extraArgs?: string[]): Promise<CliProcess>;
  stop(): Promise<void>;
}

/** Starts `count` server processes (the CLI, as users run it) on a new database, with the test keys. */
export async function startInstances(count: number, extraArgs: string[] = []): Promise<Instances> {
  const databaseUrl = await createTestDatabase();
  const all: CliProcess[] = [];
  const add = async (more: string[] = []) => {
    const instance = await startCli([
      "--database",
      databaseUrl,
      "--database-pool-size",
      "5",
      ...ON_FREE_PORTS,
      "--dev-keys",
      "--allow-private-webhooks",
      "--quiet",
      ...GENEROUS,
      ...extraArgs,
      ...more,
    ]);
    all.push(instance);
    return instance;
  };
  // One after another: the first migrates the new database, the others find it migrated.
  for (let i = 0; i < count; i++) {
    await add();
  }
  return {
    databaseUrl,
    all,
    add,
    async stop() {
      await Promise.all(
        all.map(async (instance) => {
          if (instance.child.exitCode === null && instance.child.signalCode === null) {
            instance.child.kill("SIGKILL");
            await instance.exited;
          }
        }),
      );
    },
  };
}

/** Calls `fetch` on the instances in turn: request `i` goes to instance `i % n`. */
export function roundRobin<T>(instances: readonly T[], index: number): T {
  const instance = instances[index % instances.length];
  if (instance === undefined) {
    throw new Error("No instances.");
  }
  return instance;
}

export const inboxHeaders = (extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${TEST_KEYS.inbox}`,
  "content-type": "application/json",
  ...extra,
});

export const forumHeaders = (key = TEST_KEYS.forum) => ({
  authorization: `Bearer ${key}`,
  "content-type": "application/json",
});

/** Runs `count` calls with at most `parallel` at a time (a bounded load). */
export async function bounded(count: number, parallel: number, call: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        await call(next++);
      }
    }),
  );
}
