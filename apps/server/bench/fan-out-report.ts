import type { FanOutResult } from "./fan-out.ts";

const COLUMNS = [
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
] as const;

const milliseconds = (value: number) => (Number.isNaN(value) ? "-" : value.toFixed(1));

/**
 * The fan-out's figures as a header and a row, right-aligned under each other: latencies run from the start of a
 * send's request to a subscriber's receipt of its event.
 */
export function renderFanOut(result: FanOutResult): string[] {
  const cells = [
    String(result.subscribers),
    String(result.messages),
    String(result.delivered),
    String(result.lost),
    String(result.repeated),
    result.eventsPerSecond.toFixed(0),
    milliseconds(result.latencyMs.p50),
    milliseconds(result.latencyMs.p99),
    milliseconds(result.latencyMs.max),
    milliseconds(result.sendP50Ms),
    result.cpu.servers.map((seconds) => seconds.toFixed(2)).join(" + "),
    result.cpu.database === null ? "-" : result.cpu.database.toFixed(2),
  ];
  const widths = COLUMNS.map((title, index) => Math.max(title.length, cells[index]?.length ?? 0));
  const line = (values: readonly string[]) =>
    values.map((value, index) => value.padStart(widths[index] ?? 0)).join("  ");
  return [line(COLUMNS), line(cells)];
}
