import type { LatencySummary, WebhookDeliveryResult } from "./webhook-delivery.ts";

const COLUMNS = [
  "measured",
  "count",
  "lost",
  "repeated",
  "p50 ms",
  "p95 ms",
  "p99 ms",
  "max ms",
  "p50 x send",
  "p95 x send",
  "p99 x send",
] as const;

const milliseconds = (value: number) => (Number.isNaN(value) ? "-" : value.toFixed(1));

/** A delivery percentile as a multiple of the same percentile of the send requests; "-" where either is missing. */
export function timesSend(delivery: number, send: number): string {
  return Number.isNaN(delivery) || Number.isNaN(send) || send <= 0 ? "-" : `${(delivery / send).toFixed(2)}x`;
}

function row(
  name: string,
  latency: LatencySummary,
  counts: { lost: string; repeated: string },
  send: LatencySummary | null,
): string[] {
  const ratio = (pick: (summary: LatencySummary) => number) =>
    send === null ? "-" : timesSend(pick(latency), pick(send));
  return [
    name,
    String(latency.count),
    counts.lost,
    counts.repeated,
    milliseconds(latency.p50),
    milliseconds(latency.p95),
    milliseconds(latency.p99),
    milliseconds(latency.max),
    ratio((summary) => summary.p50),
    ratio((summary) => summary.p95),
    ratio((summary) => summary.p99),
  ];
}

/**
 * The webhook delivery's figures as a header and one row per measurement, aligned: the send requests (start to 200,
 * the baseline) and then each event, from its send's 200 to its arrival at the receiver, against the baseline.
 */
export function renderWebhookDelivery(result: WebhookDeliveryResult): string[] {
  const rows = [
    COLUMNS.slice(),
    row("send request (to its 200)", result.send, { lost: "-", repeated: "-" }, null),
    ...result.events.map((event) =>
      row(
        `${event.eventType} (after the 200)`,
        event.latency,
        { lost: String(event.lost), repeated: String(event.repeated) },
        result.send,
      ),
    ),
  ];
  const widths = COLUMNS.map((_, index) => Math.max(...rows.map((cells) => cells[index]?.length ?? 0)));
  return rows.map((cells) =>
    cells
      .map((cell, index) => (index === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[index] ?? 0)))
      .join("  "),
  );
}
