import { isoTimestamp } from "../clock.ts";
import type { PostSort } from "../storage/forum/forum-store.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The windows of `sort=top` (`t`): posts created within this long before the request. */
export const TOP_WINDOW_MS = {
  hour: HOUR_MS,
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 30 * DAY_MS,
  year: 365 * DAY_MS,
  all: null,
} as const;

export type TopWindow = keyof typeof TOP_WINDOW_MS;

/**
 * `rising` ranks the posts of the last 24 hours by `(upvotes - downvotes + 1) / (age_hours + 2)^1.5` (the store
 * computes it in SQL, at the time of the request): a young post with a few votes outranks an older one with more,
 * so it lists the recent posts gaining votes fastest. Older posts are left out, which also bounds the work.
 */
export const RISING_WINDOW_MS = DAY_MS;

/** The earliest creation time a listing in `sort` (and `t` for `top`) includes, or null for every post. */
export function createdSince(sort: PostSort, window: TopWindow, nowMs: number): string | null {
  if (sort === "rising") {
    return isoTimestamp(nowMs - RISING_WINDOW_MS);
  }
  const span = sort === "top" ? TOP_WINDOW_MS[window] : null;
  return span === null ? null : isoTimestamp(nowMs - span);
}
