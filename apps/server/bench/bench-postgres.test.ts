import pg from "pg";
import { describe, expect, it } from "vitest";
import { openBenchPostgres } from "./bench-postgres.ts";
import { processName, processTreeCpuSeconds } from "./process-cpu.ts";

async function query(url: string, sql: string): Promise<void> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe("openBenchPostgres", () => {
  it("starts a cluster whose main process counts the CPU of the connections it served, and stops it", async () => {
    const postgres = await openBenchPostgres(undefined);
    try {
      expect(postgres.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/pigeonhole_bench$/);
      const pid = postgres.postmasterPid as number;
      expect(processName(pid)).toBe("postgres");
      const before = processTreeCpuSeconds(pid) as number;
      // A connection's own backend process does the work and ends with it.
      await query(postgres.url, "select sum(i) from generate_series(1, 20000000) as i");
      // The ended backend's time reaches its parent's count once the postmaster has reaped it: wait for that, briefly.
      let used = 0;
      for (let tries = 0; tries < 50 && used <= 0.3; tries++) {
        used = (processTreeCpuSeconds(pid) as number) - before;
        if (used <= 0.3) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      expect(used).toBeGreaterThan(0.3);

      // The same server, given by its address: found as well, and left running.
      const given = await openBenchPostgres(postgres.url);
      expect(given.postmasterPid).toBe(pid);
      await given.stop();
      await query(postgres.url, "select 1");
    } finally {
      await postgres.stop();
    }
    await expect(query(postgres.url, "select 1")).rejects.toThrow(/ECONNREFUSED/);
  });

  it("does not look for the processes of a server on another machine", async () => {
    const remote = await openBenchPostgres("postgres://bench@db.example.invalid:5432/bench");
    expect(remote.postmasterPid).toBeUndefined();
  });
});
