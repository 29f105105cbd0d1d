import { sql } from "kysely";
import type { SqlDialect } from "../sql-dialect.ts";

/**
 * SQLite's side of the queries. A list is one JSON text parameter read with `json_each`, so a list of any length is
 * one statement, prepared once; `in (?, ?, ...)` would be a new statement for every length.
 */
export const sqliteDialect: SqlDialect = {
  name: "sqlite",
  listParam: (values) => JSON.stringify(values),
  inList: (column, list) => sql<boolean>`${sql.ref(column)} in (select value from json_each(${list}))`,
  containsAll: (column, list) =>
    sql<boolean>`not exists (select 1 from json_each(${list}) as wanted
      where wanted.value not in (select value from json_each(${sql.ref(column)})))`,
  // SQLite plans a statement with the value bound to its LIMIT or OFFSET in view, so each new value makes it prepare
  // the statement again; inside a scalar subquery the value is opaque and the plan is kept (a page query runs about
  // 1.5x as fast).
  rowCount: (value) => sql<number>`(select ${value})`,
  // One connection writes, and a transaction holds it: it already sees and changes the database alone.
  lockRows: (query) => query,
  claimRows: (query) => query,
  isUniqueViolation: (error) =>
    error instanceof Error && "errcode" in error && (error.errcode === 2067 || error.errcode === 1555),
  // Transactions never interleave on the one writing connection.
  isTransientConflict: () => false,
  notifyOnCommit: async () => {},
  // The transaction holds the writing connection, and a SQLite read transaction sees one snapshot (WAL).
  readSnapshot: (db, work) => db.transaction().execute(work),
};
