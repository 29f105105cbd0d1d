import { describe, expect, it } from "vitest";
import type { LoadResult } from "./load.ts";
import {
  goalVerdicts,
  type MeasuredScenario,
  renderTable,
  renderVerdicts,
  serverMicrosecondsPerRequest,
} from "./report.ts";
import { SQLITE_GOALS } from "./scenarios.ts";

// Answers of 1,500 bytes each.
const load = (rps: number): LoadResult => ({ rps, p50: 1, p99: 4, requests: rps * 5, bytesPerSecond: rps * 1500 });

function measured(name: string, kind: "read" | "write", rps: number, ceilingRps: number): MeasuredScenario {
  return {
    name,
    kind,
    load: load(rps),
    cpu: { servers: [2.5, 2.25], database: 1.5, loadGenerator: 3, others: 0.25 },
    ceiling: {
      name: "trivial handler",
      load: load(ceilingRps),
      cpu: { servers: [4, 4], database: null, loadGenerator: 4.5, others: 0 },
    },
  };
}

describe("the benchmark's report", () => {
  it("counts the CPU of every server instance, and nothing else, per request", () => {
    const cpu = { servers: [0.25, 0.5], database: 9, loadGenerator: 9, others: 9 };
    expect(serverMicrosecondsPerRequest({ ...load(1000), requests: 7500 }, cpu)).toBe(100);
    expect(serverMicrosecondsPerRequest({ ...load(0), requests: 0 }, cpu)).toBeNull();
  });

  const rows = [
    measured("get post", "read", 3000, 10_000),
    measured("list posts", "read", 2999, 10_000),
    measured("create comment", "write", 1000, 10_000),
    measured("send message", "write", 999, 10_000),
  ];

  it("holds reads to 0.3x of the ceiling and writes to 0.1x", () => {
    expect(goalVerdicts(rows, SQLITE_GOALS).map(({ name, met }) => [name, met])).toEqual([
      ["get post", true],
      ["list posts", false],
      ["create comment", true],
      ["send message", false],
    ]);
    expect(renderVerdicts(goalVerdicts(rows, SQLITE_GOALS))).toEqual([
      "met    get post: 0.30x of the ceiling (goal 0.3x)",
      "MISSED list posts: 0.30x of the ceiling (goal 0.3x)",
      "met    create comment: 0.10x of the ceiling (goal 0.1x)",
      "MISSED send message: 0.10x of the ceiling (goal 0.1x)",
    ]);
  });

  it("puts each scenario under its ceiling with the CPU seconds of every process", () => {
    const [header, ceiling, scenario] = renderTable(rows.slice(0, 1));
    expect(header?.split(/\s{2,}/)).toEqual([
      "scenario",
      "req/s",
      "MB/s",
      "p50 ms",
      "p99 ms",
      "x ceiling",
      "µs CPU/req",
      "CPU s server",
      "database",
      "load gen",
      "others",
      "req/CPU s",
    ]);
    expect(ceiling?.trim().split(/\s{2,}/)).toEqual([
      "ceiling: trivial handler",
      "10000",
      "15.0",
      "1",
      "4",
      "1.00x",
      "160",
      "4.00 + 4.00",
      "-",
      "4.50",
      "0.00",
      "6250",
    ]);
    // 15,000 requests over 2.5 + 2.25 s of the servers (317 µs each) and 1.5 s of the database (2400 per CPU s).
    expect(scenario?.split(/\s{2,}/)).toEqual([
      "get post",
      "3000",
      "4.5",
      "1",
      "4",
      "0.30x",
      "317",
      "2.50 + 2.25",
      "1.50",
      "3.00",
      "0.25",
      "2400",
    ]);
  });
});
