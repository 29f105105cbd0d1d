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
  /** Only rows whose labels include every one of these (on lists that have labels). */
  labels?: readonly string[];
}

type PageParams = { scope: string; limit: number; createdAt: string; seq: number; labels: unknown };

/** Where a list keeps its labels, for a `labels` filter: a JSON array of strings. */
export interface LabelledList {
  labelsColumn: string;
}

/**
 * The newest-first keyset list of one table within one scope (a pod's inboxes, an inbox's messages, ...): rows
 * strictly after the position in `(created_at, seq)` descending order, where `seq` breaks ties between rows of one
 * millisecond, so paging while rows arrive neither repeats nor skips one. `select` picks the table and scope.
 */
export function newestFirst<Table extends keyof DatabaseSchema, Row extends { created_at: string; seq: number }>(
  dialect: SqlDialect,
  select: (db: ServerDatabase, scope: string) => SelectQueryBuilder<DatabaseSchema, Table, Row>,
  labelled?: LabelledList,
) {
  const page = preparedVariants(
    (shape: `${"first" | "after"}:${"all" | "labelled"}`) =>
      new PreparedQuery((db, p: PageParams) => {
        const [start, filter] = shape.split(":");
        let scoped = select(db, p.scope);
        if (start === "after") {
          scoped = scoped.where(sql<boolean>`(created_at, seq) < (${p.createdAt}, ${p.seq})`);
        }
        if (filter === "labelled" && labelled) {
          scoped = scoped.where(dialect.containsAll(labelled.labelsColumn, p.labels));
        }
        return scoped.orderBy(sql`created_at desc`).orderBy(sql`seq desc`).limit(dialect.rowCount(p.limit));
      }),
  );
  return async (db: ServerDatabase, scope: string, request: PageRequest): Promise<Positioned<Row>[]> => {
    const { after } = request;
    const labels = labelled && request.labels && request.labels.length > 0 ? request.labels : null;
    const rows = await page(`${after ? "after" : "first"}:${labels ? "labelled" : "all"}`).rows(db, {
      scope,
      limit: request.limit,
      createdAt: after?.createdAt ?? "",
      seq: after?.seq ?? 0,
      labels: dialect.listParam(labels ?? []),
    });
    return rows.map((row) => ({ row, position: { createdAt: row.created_at, seq: row.seq } }));
  };
}
