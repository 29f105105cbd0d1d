/**
 * The nearest-rank percentile of `values` (in any order): the smallest value that at least `percent`% of the values
 * are less than or equal to. Answers NaN for no values.
 */
export function percentile(values: readonly number[], percent: number): number {
  if (!(percent > 0 && percent <= 100)) {
    throw new RangeError(`A percentile is above 0 and at most 100, not ${percent}.`);
  }
  if (values.length === 0) {
    return Number.NaN;
  }
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((percent / 100) * sorted.length);
  return sorted[rank - 1] as number;
}
