import { sql } from "kysely";
import type { PageCursor } from "../../inbox/page-token.ts";

/** A row of a newest-first list with its position, from which the next page starts. */
export interface Positioned<T> {
  item: T;
  cursor: PageCursor;
}

export interface PageRequest {
  /** Rows to fetch (the page size plus one, to learn whether more follow). */
  limit: number;
  after?: PageCursor;
}

/** Keyset condition of newest-first lists: rows strictly after the cursor in `(created_at, seq)` descending order. */
export const beforeCursor = ({ createdAt, seq }: PageCursor) =>
  sql<boolean>`(created_at, seq) < (${createdAt}, ${seq})`;

/** The position of a listed row, from which the page after it starts. */
export const cursorOf = (row: { created_at: string; seq: number }): PageCursor => ({
  createdAt: row.created_at,
  seq: row.seq,
});
