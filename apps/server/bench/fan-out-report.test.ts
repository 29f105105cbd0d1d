import { describe, expect, it } from "vitest";
import type { FanOutResult } from "./fan-out.ts";
import { renderFanOut } from "./fan-out-report.ts";

const result: FanOutResult = {
  subscribers: 100,
  messages: 200,
  delivered: 19_990,
  lost: 10,
  repeated: 0,
  eventsPerSecond: 8765.4,
  latencyMs: { p50: 3.16, p99: 12.5, max: 40 },
  sendP50Ms: 2.06,
  cpu: { servers: [1.5, 0.25], database: 0.75, loadGenerator: 2, others: 0 },
};

describe("renderFanOut", () => {
  it("puts each figure under its title, latencies to a tenth of a millisecond", () => {
    const [header, row] = renderFanOut(result);
    expect(header?.trim().split(/\s{2,}/)).toEqual([
      "subscribers",
      "sends",
      "delivered",
      "lost",
      "repeated",
      "events/s",
      "p50 ms",
      "p99 ms",
      "max ms",
      "send p50 ms",
      "CPU s server",
      "database",
    ]);
    expect(row?.trim().split(/\s{2,}/)).toEqual([
      "100",
      "200",
      "19990",
      "10",
      "0",
      "8765",
      "3.2",
      "12.5",
      "40.0",
      "2.1",
      "1.50 + 0.25",
      "0.75",
    ]);
    expect(row).toHaveLength(header?.length ?? 0);
  });

  it("shows a dash for latencies of a run that delivered nothing and for a database without a process here", () => {
    const [, row] = renderFanOut({
      ...result,
      delivered: 0,
      lost: 20_000,
      eventsPerSecond: 0,
      latencyMs: { p50: Number.NaN, p99: Number.NaN, max: Number.NaN },
      cpu: { ...result.cpu, database: null },
    });
    expect(row?.trim().split(/\s{2,}/)).toEqual([
      "100",
      "200",
      "0",
      "20000",
      "0",
      "0",
      "-",
      "-",
      "-",
      "2.1",
      "1.50 + 0.25",
      "-",
    ]);
  });
});
