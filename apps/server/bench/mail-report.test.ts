import { describe, expect, it } from "vitest";
import type { CpuUse } from "./cpu-window.ts";
import { describeCheck, type MailMeasurement, renderMailTable } from "./mail-report.ts";
import type { MeasuredScenario } from "./report.ts";

const cpu = (servers: number[], database: number | null = null): CpuUse => ({
  servers,
  database,
  loadGenerator: 0.5,
  others: 0.1,
});

const httpSend: MeasuredScenario = {
  name: "send message",
  kind: "write",
  load: { rps: 800, p50: 11, p99: 30, requests: 4000, bytesPerSecond: 200_000 },
  cpu: cpu([4.1]),
  ceiling: {
    name: "trivial handler",
    load: { rps: 9000, p50: 1, p99: 2, requests: 45_000, bytesPerSecond: 1e6 },
    cpu: cpu([4]),
  },
};

const received: MailMeasurement = {
  name: "SMTP receive",
  messages: 500,
  perSecond: 400,
  latencyMs: { p50: 20.25, p99: 61 },
  cpu: cpu([1.2]),
  check: { verb: "stored", confirmed: 500, missing: 0, doubled: 0, unexpected: 0, failed: 0 },
};

describe("describeCheck", () => {
  it("says how many of the messages were confirmed when all were, once each", () => {
    expect(describeCheck(received)).toBe("500 of 500 stored");
  });

  it("puts MISSED in front and lists every problem", () => {
    expect(
      describeCheck({
        ...received,
        check: { verb: "relayed", confirmed: 497, missing: 1, doubled: 2, unexpected: 1, failed: 2 },
      }),
    ).toBe("MISSED 497 of 500 relayed: 1 missing, 2 doubled, 1 unexpected, 2 failed");
  });
});

describe("renderMailTable", () => {
  it("prints the HTTP send, then each mail scenario as a share of it, aligned under a header", () => {
    const lines = renderMailTable(httpSend, [
      received,
      { ...received, name: "relayed", perSecond: 200, cpu: cpu([1, 0.5], 2), latencyMs: { p50: Number.NaN, p99: 5 } },
    ]);
    expect(lines).toEqual([
      "scenario                   msg/s  p50 ms  p99 ms  x HTTP send  µs CPU/msg  CPU s server  database  check",
      "HTTP send message (above)    800      11      30        1.00x        1025          4.10         -",
      "SMTP receive                 400    20.3    61.0        0.50x        2400          1.20         -  500 of 500 stored",
      "relayed                      200       -     5.0        0.25x        3000   1.00 + 0.50      2.00  500 of 500 stored",
    ]);
  });

  it("prints no ratio without an HTTP send to compare with", () => {
    const [, row] = renderMailTable(undefined, [received]);
    expect(row).toMatch(/^SMTP receive\s+400\s+20\.3\s+61\.0\s+-\s+2400\s+1\.20\s+-\s+500 of 500 stored$/);
  });
});
