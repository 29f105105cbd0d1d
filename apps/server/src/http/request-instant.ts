import type { ApiProblem, ProblemDetails } from "./api-problem.ts";

/** A service's problem class, so that the 400 answers in that service's envelope. */
export type InvalidInstantProblem = new (
  status: 400,
  code: "INVALID_VALUE",
  message: string,
  details: ProblemDetails,
) => ApiProblem<string>;

/**
 * A request's date-time as epoch milliseconds. The spec's `date-time` format admits what `Date.parse` cannot read (a
 * leap second, `23:59:60`), which would otherwise go on as NaN: such a value is a 400 naming `field`, raised as
 * `Problem`.
 */
export function instantOrProblem(value: string, field: string, Problem: InvalidInstantProblem): number {
  const epochMs = Date.parse(value);
  if (Number.isNaN(epochMs)) {
    throw new Problem(400, "INVALID_VALUE", `${field}: '${value}' is not a date-time this server can read.`, {
      field,
      hint: "Give an ISO 8601 date-time in UTC, such as 2026-01-01T23:59:59Z.",
    });
  }
  return epochMs;
}
