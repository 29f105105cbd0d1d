import { type SelectQueryBuilder, sql } from "kysely";
import type { DatabaseSchema } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";

/** Where a newest-first list stands: the `(created_at, seq)` of the last row listed. */
export interface ListPosition {
  createdAt: string;
  seq: number;
}

/** A row of a newest-first list with its position, from which the next page starts. */
export interface Positioned<T> {
  row: T;
  position: ListPosition;
}

export interface PageRequest {
  /** Rows to fetch (the page size plus one, to learn whether more follow). */
  limit: number;
  after?: ListPosition;
}

/**
 * One page of a newest-first list, by keyset: rows strictly after `after` in `(created_at, seq)` descending order.
 * `seq` breaks ties between rows created in the same millisecond, so paging while rows arrive neither repeats nor
 * skips one.
 */
export async function newestFirstPage<
  Table extends keyof DatabaseSchema,
  Row extends { created_at: string; seq: number },
>(
  query: SelectQueryBuilder<DatabaseSchema, Table, Row>,
  dialect: SqlDialect,
  page: PageRequest,
): Promise<Positioned<Row>[]> {
  const { after } = page;
  const rows = await (after ? query.where(sql<boolean>`(created_at, seq) < (${after.createdAt}, ${after.seq})`) : query)
    .orderBy(sql`created_at desc`)
    .orderBy(sql`seq desc`)
    .limit(dialect.rowCount(page.limit))
    .execute();
  return rows.map((row) => ({ row, position: { createdAt: row.created_at, seq: row.seq } }));
}
