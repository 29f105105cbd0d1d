/**
 * The `hot` ranking of the Forum API: `sign(s) * log10(max(|s|, 1)) + created_at_epoch_seconds / 45000` with
 * `s = upvotes - downvotes + 1`: the author's own implicit vote is counted, as Reddit does, so that another agent's
 * first upvote (s = 2) lifts a post above otherwise equal newer ones. A tenfold score is worth 45,000 seconds
 * (12.5 hours) of age.
 */
export function hotRank(upvotes: number, downvotes: number, createdAtMs: number): number {
  const score = upvotes - downvotes + 1;
  return Math.sign(score) * Math.log10(Math.max(Math.abs(score), 1)) + createdAtMs / 1000 / 45_000;
}
