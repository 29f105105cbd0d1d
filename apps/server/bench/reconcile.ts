/** How the items a check found compare with the ones it expected, each expected once. */
export interface Reconciled {
  /** Expected items found at least once. */
  confirmed: number;
  /** Expected items not found. */
  missing: number;
  /** Finds beyond the first of an expected item. */
  doubled: number;
  /** Finds of items that were never expected. */
  unexpected: number;
}

/** Compares what was found (in any order, repeats kept) with what was expected (each item once). */
export function reconcile(expected: Iterable<string>, found: Iterable<string>): Reconciled {
  const wanted = new Set(expected);
  const seen = new Map<string, number>();
  let unexpected = 0;
  for (const item of found) {
    if (wanted.has(item)) {
      seen.set(item, (seen.get(item) ?? 0) + 1);
    } else {
      unexpected++;
    }
  }
  let doubled = 0;
  for (const count of seen.values()) {
    doubled += count - 1;
  }
  return { confirmed: seen.size, missing: wanted.size - seen.size, doubled, unexpected };
}
