/**
 * The `hot` ranking of the Forum API: `sign(score) * log10(max(|score|, 1)) + created_at_epoch_seconds / 45000`
 * with `score = upvotes - downvotes`. A tenfold score is worth 45,000 seconds (12.5 hours) of age.
 */
export function hotRank(upvotes: number, downvotes: number, createdAtMs: number): number {
  const score = upvotes - downvotes;
  return Math.sign(score) * Math.log10(Math.max(Math.abs(score), 1)) + createdAtMs / 1000 / 45_000;
}
