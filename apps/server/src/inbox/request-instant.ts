import { InboxProblem } from "./inbox-errors.ts";

/**
 * A request's date-time as epoch milliseconds. The spec's `date-time` format admits what `Date.parse` cannot read (a
 * leap second, `23:59:60`), which would otherwise reach the database as NaN: such a value is a 400 naming `field`.
 */
export function requestInstant(value: string, field: string): number {
  const epochMs = Date.parse(value);
  if (Number.isNaN(epochMs)) {
    throw new InboxProblem(400, "INVALID_VALUE", `${field}: '${value}' is not a date-time this server can read.`, {
      field,
      hint: "Give an ISO 8601 date-time in UTC, such as 2026-01-01T23:59:59Z.",
    });
  }
  return epochMs;
}
