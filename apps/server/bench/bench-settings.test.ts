import { describe, expect, it } from "vitest";
import { readBenchSettings, selectsPart, unmatchedFilters } from "./bench-settings.ts";

describe("readBenchSettings", () => {
  it("defaults to SQLite and PostgreSQL with 1 and 2 instances, 5 s, 10 connections, 10k posts, 100 subscribers", () => {
    expect(readBenchSettings({})).toEqual({
      backends: ["sqlite", "postgres"],
      instances: [1, 2],
      seconds: 5,
      connections: 10,
      posts: 10_000,
      databaseUrl: undefined,
      poolSize: undefined,
      fanOut: { subscribers: 100, messages: 200, intervalMs: 10 },
      mailMessages: 500,
      webhook: { messages: 200, intervalMs: 20 },
    });
  });

  it("takes every BENCH_ variable, so that one command scales to a bigger machine", () => {
    expect(
      readBenchSettings({
        BENCH_BACKENDS: " postgres ",
        BENCH_INSTANCES: "1, 4,8,4",
        BENCH_SECONDS: "30",
        BENCH_CONNECTIONS: "256",
        BENCH_POSTS: "100000",
        BENCH_DATABASE_URL: "postgres://bench@127.0.0.1:5432/bench",
        BENCH_POOL_SIZE: "20",
        BENCH_SUBSCRIBERS: "1000",
        BENCH_EVENTS: "5000",
        BENCH_EVENT_INTERVAL_MS: "2",
        BENCH_SMTP_MESSAGES: "2000",
        BENCH_WEBHOOK_MESSAGES: "1000",
        BENCH_WEBHOOK_INTERVAL_MS: "5",
        BENCH_SCENARIOS: "Get Post, vote,,get post",
      }),
    ).toEqual({
      backends: ["postgres"],
      instances: [1, 4, 8],
      seconds: 30,
      connections: 256,
      posts: 100_000,
      databaseUrl: "postgres://bench@127.0.0.1:5432/bench",
      poolSize: 20,
      fanOut: { subscribers: 1000, messages: 5000, intervalMs: 2 },
      mailMessages: 2000,
      webhook: { messages: 1000, intervalMs: 5 },
      scenarios: ["get post", "vote"],
    });
  });

  it("runs what BENCH_SCENARIOS names, by case-insensitive pieces of names, and everything without it", () => {
    const some = readBenchSettings({ BENCH_SCENARIOS: "list posts,VOTE" });
    expect(
      ["list posts (hot, 25 of 2k)", "vote (499 agents)", "get post", "event fan-out", "mail"].map((name) =>
        selectsPart(some, name),
      ),
    ).toEqual([true, true, false, false, false]);
    const all = readBenchSettings({ BENCH_SCENARIOS: " " });
    expect(all.scenarios).toBeUndefined();
    expect(selectsPart(all, "mail")).toBe(true);
    expect(unmatchedFilters(some, ["get post", "vote (499 agents)"])).toEqual(["list posts"]);
  });

  it.each([
    [{ BENCH_BACKENDS: "sqlite,mysql" }, /BENCH_BACKENDS takes a comma-separated list of sqlite and postgres/],
    [{ BENCH_SECONDS: "0" }, /BENCH_SECONDS must be a whole number from 1 to 600, not '0'/],
    [{ BENCH_SECONDS: "5s" }, /BENCH_SECONDS must be a whole number/],
    [{ BENCH_SECONDS: "100000" }, /BENCH_SECONDS must be a whole number from 1 to 600/],
    [{ BENCH_INSTANCES: "1,two" }, /BENCH_INSTANCES must be a whole number/],
    [{ BENCH_INSTANCES: "," }, /BENCH_INSTANCES takes a comma-separated list/],
    [{ BENCH_CONNECTIONS: "2", BENCH_INSTANCES: "4" }, /BENCH_CONNECTIONS \(2\) must be at least the largest instance/],
    [{ BENCH_SUBSCRIBERS: "0" }, /BENCH_SUBSCRIBERS must be a whole number from 1 to 10000/],
    [{ BENCH_EVENTS: "1e3" }, /BENCH_EVENTS must be a whole number/],
    [{ BENCH_EVENT_INTERVAL_MS: "20000" }, /BENCH_EVENT_INTERVAL_MS must be a whole number from 1 to 10000/],
    [{ BENCH_SMTP_MESSAGES: "200000" }, /BENCH_SMTP_MESSAGES must be a whole number from 1 to 100000/],
    [{ BENCH_WEBHOOK_MESSAGES: "0" }, /BENCH_WEBHOOK_MESSAGES must be a whole number from 1 to 100000/],
    [{ BENCH_WEBHOOK_INTERVAL_MS: "fast" }, /BENCH_WEBHOOK_INTERVAL_MS must be a whole number/],
    [{ BENCH_SCENARIOS: "," }, /BENCH_SCENARIOS takes a comma-separated list of pieces of scenario names/],
    [{ BENCH_SCENARIOS: "x".repeat(101) }, /BENCH_SCENARIOS takes a comma-separated list/],
    [{ BENCH_DATABASE_URL: "mysql://localhost/db" }, /BENCH_DATABASE_URL must be a postgres:\/\/ address/],
  ])("refuses %o", (env, message) => {
    expect(() => readBenchSettings(env)).toThrow(message);
  });

  it("lets SQLite alone run with fewer connections than PostgreSQL instances", () => {
    expect(readBenchSettings({ BENCH_BACKENDS: "sqlite", BENCH_CONNECTIONS: "1" }).connections).toBe(1);
  });
});
