import type { CpuUse } from "./cpu-window.ts";
import type { LoadResult } from "./load.ts";
import type { ScenarioKind } from "./scenarios.ts";

/** One measured scenario, with the ceiling measured right before it on as many processes. */
export interface MeasuredScenario {
  name: string;
  kind: ScenarioKind;
  load: LoadResult;
  cpu: CpuUse;
  /** The trivial handler right before, and what it answered (a small JSON body, or the same bytes). */
  ceiling: { name: string; load: LoadResult; cpu: CpuUse };
}

export interface GoalVerdict {
  name: string;
  ratio: number;
  goal: number;
  met: boolean;
}

const seconds = (value: number) => value.toFixed(2);

/** The scenario's requests per second as a share of the ceiling's. */
export const ceilingRatio = (row: MeasuredScenario) => row.load.rps / row.ceiling.load.rps;

/** Each scenario against the goal for its kind. */
export function goalVerdicts(rows: readonly MeasuredScenario[], goals: Readonly<Record<ScenarioKind, number>>) {
  return rows.map((row): GoalVerdict => {
    const ratio = ceilingRatio(row);
    const goal = goals[row.kind];
    return { name: row.name, ratio, goal, met: ratio >= goal };
  });
}

interface Column {
  title: string;
  width: number;
  align: "left" | "right";
}

const COLUMNS: Column[] = [
  { title: "scenario", width: 30, align: "left" },
  { title: "req/s", width: 6, align: "right" },
  { title: "MB/s", width: 6, align: "right" },
  { title: "p50 ms", width: 6, align: "right" },
  { title: "p99 ms", width: 6, align: "right" },
  { title: "x ceiling", width: 9, align: "right" },
  { title: "µs CPU/req", width: 10, align: "right" },
  { title: "CPU s server", width: 12, align: "right" },
  { title: "database", width: 8, align: "right" },
  { title: "load gen", width: 8, align: "right" },
  { title: "others", width: 6, align: "right" },
  { title: "req/CPU s", width: 9, align: "right" },
];

function line(cells: string[]): string {
  return COLUMNS.map((column, index) => {
    const cell = cells[index] ?? "";
    return column.align === "left" ? cell.padEnd(column.width) : cell.padStart(column.width);
  }).join("  ");
}

/**
 * Microseconds of the server processes' CPU per request, all instances together: unlike req/s, this does not move
 * when the load generator or anything else on the machine takes CPU away from the servers.
 */
export function serverMicrosecondsPerRequest(load: LoadResult, cpu: CpuUse): number | null {
  const serverCpu = cpu.servers.reduce((sum, value) => sum + value, 0);
  return load.requests > 0 ? (serverCpu * 1e6) / load.requests : null;
}

function cells(name: string, load: LoadResult, cpu: CpuUse, ratio: number): string[] {
  const serverCpu = cpu.servers.reduce((sum, value) => sum + value, 0);
  // Requests per CPU second of everything that serves them (server instances and database), not the load generator.
  const servingCpu = serverCpu + (cpu.database ?? 0);
  return [
    name,
    load.rps.toFixed(0),
    (load.bytesPerSecond / 1e6).toFixed(1),
    String(load.p50),
    String(load.p99),
    `${ratio.toFixed(2)}x`,
    serverMicrosecondsPerRequest(load, cpu)?.toFixed(0) ?? "-",
    cpu.servers.map(seconds).join(" + "),
    cpu.database === null ? "-" : seconds(cpu.database),
    seconds(cpu.loadGenerator),
    seconds(cpu.others),
    servingCpu > 0 ? (load.requests / servingCpu).toFixed(0) : "-",
  ];
}

/** The table of one configuration: each scenario under the ceiling measured right before it. */
export function renderTable(rows: readonly MeasuredScenario[]): string[] {
  const lines = [line(COLUMNS.map((column) => column.title))];
  for (const row of rows) {
    lines.push(line(cells(`  ceiling: ${row.ceiling.name}`, row.ceiling.load, row.ceiling.cpu, 1)));
    lines.push(line(cells(row.name, row.load, row.cpu, ceilingRatio(row))));
  }
  return lines;
}

/** One line per scenario, saying whether it reached its goal. */
export function renderVerdicts(verdicts: readonly GoalVerdict[]): string[] {
  return verdicts.map(
    (verdict) =>
      `${verdict.met ? "met   " : "MISSED"} ${verdict.name}: ${verdict.ratio.toFixed(2)}x of the ceiling ` +
      `(goal ${verdict.goal.toFixed(1)}x)`,
  );
}
