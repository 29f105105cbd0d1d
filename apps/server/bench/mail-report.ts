import type { CpuUse } from "./cpu-window.ts";
import type { Reconciled } from "./reconcile.ts";
import { type MeasuredScenario, serverMicrosecondsPerRequest } from "./report.ts";

/** One mail scenario: a bounded number of messages, how fast they went through, and whether each arrived once. */
export interface MailMeasurement {
  name: string;
  /** Messages the scenario tried to get through. */
  messages: number;
  /** Messages that got through per second, from the first one's start to the last one's arrival. */
  perSecond: number;
  latencyMs: { p50: number; p99: number };
  cpu: CpuUse;
  /** What the run looked for afterwards (the messages stored, or the messages the relay delivered), and found. */
  check: Reconciled & {
    /** What "confirmed" means: "stored" or "relayed". */
    verb: string;
    /** Messages refused or failed on the way, which the check did not expect. */
    failed: number;
  };
}

const COLUMNS = [
  "scenario",
  "msg/s",
  "p50 ms",
  "p99 ms",
  "x HTTP send",
  "µs CPU/msg",
  "CPU s server",
  "database",
  "check",
] as const;
/** Columns written left-aligned; the figures are right-aligned. */
const LEFT = new Set<number>([0, COLUMNS.length - 1]);

/** Microseconds of the server instances' CPU, all together, per message the scenario handled. */
const serverMicrosecondsPerMessage = (row: MailMeasurement) =>
  row.messages > 0 ? ((row.cpu.servers.reduce((sum, value) => sum + value, 0) * 1e6) / row.messages).toFixed(0) : "-";
const milliseconds = (value: number) => (Number.isNaN(value) ? "-" : value.toFixed(1));
const cpuCells = (cpu: CpuUse) => [
  cpu.servers.map((seconds) => seconds.toFixed(2)).join(" + "),
  cpu.database === null ? "-" : cpu.database.toFixed(2),
];

/** "500 of 500 stored", with what went wrong after it; "MISSED" in front when anything did. */
export function describeCheck(measurement: MailMeasurement): string {
  const { check, messages } = measurement;
  const problems = [
    check.missing > 0 ? `${check.missing} missing` : "",
    check.doubled > 0 ? `${check.doubled} doubled` : "",
    check.unexpected > 0 ? `${check.unexpected} unexpected` : "",
    check.failed > 0 ? `${check.failed} failed` : "",
  ].filter((problem) => problem !== "");
  const summary = `${check.confirmed} of ${messages} ${check.verb}`;
  return problems.length === 0 ? summary : `MISSED ${summary}: ${problems.join(", ")}`;
}

/**
 * The mail scenarios under the HTTP send of the same configuration, each as a share of its requests per second:
 * a header and a row each, aligned.
 */
export function renderMailTable(httpSend: MeasuredScenario | undefined, rows: readonly MailMeasurement[]): string[] {
  const table: string[][] = [[...COLUMNS]];
  if (httpSend) {
    table.push([
      `HTTP ${httpSend.name} (above)`,
      httpSend.load.rps.toFixed(0),
      String(httpSend.load.p50),
      String(httpSend.load.p99),
      "1.00x",
      serverMicrosecondsPerRequest(httpSend.load, httpSend.cpu)?.toFixed(0) ?? "-",
      ...cpuCells(httpSend.cpu),
      "",
    ]);
  }
  for (const row of rows) {
    table.push([
      row.name,
      row.perSecond.toFixed(0),
      milliseconds(row.latencyMs.p50),
      milliseconds(row.latencyMs.p99),
      httpSend && httpSend.load.rps > 0 ? `${(row.perSecond / httpSend.load.rps).toFixed(2)}x` : "-",
      serverMicrosecondsPerMessage(row),
      ...cpuCells(row.cpu),
      describeCheck(row),
    ]);
  }
  const widths = COLUMNS.map((_, index) => Math.max(...table.map((cells) => cells[index]?.length ?? 0)));
  return table.map((cells) =>
    cells
      .map((cell, index) => (LEFT.has(index) ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
}
