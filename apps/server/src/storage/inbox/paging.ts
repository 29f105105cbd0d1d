import { type SelectQueryBuilder, sql } from "kysely";
import type { ServerDatabase } from "../database.ts";
import { PreparedQuery, preparedVariants } from "../prepared-query.ts";
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

type PageParams = { scope: string; limit: number; createdAt: string; seq: number };

/**
 * The newest-first keyset list of one table within one scope (a pod's inboxes, an inbox's messages, ...): rows
 * strictly after the position in `(created_at, seq)` descending order, where `seq` breaks ties between rows of one
 * millisecond, so paging while rows arrive neither repeats nor skips one. `select` picks the table and scope.
 */
export function newestFirst<Table extends keyof DatabaseSchema, Row extends { created_at: string; seq: number }>(
  dialect: SqlDialect,
  select: (db: ServerDatabase, scope: string) => SelectQueryBuilder<DatabaseSchema, Table, Row>,
) {
  const page = preparedVariants(
    (start: "first" | "after") =>
      new PreparedQuery((db, p: PageParams) => {
        const scoped = select(db, p.scope);
        return (start === "after" ? scoped.where(sql<boolean>`(created_at, seq) < (${p.createdAt}, ${p.seq})`) : scoped)
          .orderBy(sql`created_at desc`)
          .orderBy(sql`seq desc`)
          .limit(dialect.rowCount(p.limit));
      }),
  );
  return async (db: ServerDatabase, scope: string, request: PageRequest): Promise<Positioned<Row>[]> => {
    const { after } = request;
    const rows = await page(after ? "after" : "first").rows(db, {
      scope,
      limit: request.limit,
      createdAt: after?.createdAt ?? "",
      seq: after?.seq ?? 0,
    });
    return rows.map((row) => ({ row, position: { createdAt: row.created_at, seq: row.seq } }));
  };
}
