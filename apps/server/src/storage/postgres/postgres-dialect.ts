import { sql } from "kysely";
import type { SqlDialect } from "../sql-dialect.ts";

/** PostgreSQL's side of the queries; several server instances share the database, so rows are locked explicitly. */
export const postgresDialect: SqlDialect = {
  name: "postgres",
  listParam: (values) => values,
  inList: (column, list) => sql<boolean>`${sql.ref(column)} = any(${list}::text[])`,
  containsAll: (column, list) => sql<boolean>`${sql.ref(column)}::jsonb @> to_jsonb(${list}::text[])`,
  rowCount: (value) => value,
  lockRows: (query) => query.forUpdate(),
  claimRows: (query) => query.forUpdate().skipLocked(),
  // 23505: unique_violation.
  isUniqueViolation: (error) => errorCode(error) === "23505",
  // 40P01: deadlock_detected; 40001: serialization_failure.
  isTransientConflict: (error) => errorCode(error) === "40P01" || errorCode(error) === "40001",
  // NOTIFY inside a transaction is delivered when it commits, and not at all when it rolls back.
  notifyOnCommit: async (trx, channel, payload) => {
    await sql`select pg_notify(${channel}, ${payload})`.execute(trx);
  },
  // Read committed gives each statement its own snapshot; repeatable read gives the transaction one.
  readSnapshot: (db, work) => db.transaction().setIsolationLevel("repeatable read").execute(work),
};

function errorCode(error: unknown): unknown {
  return error instanceof Error && "code" in error ? error.code : undefined;
}
