import type { Expression, SqlBool } from "kysely";

/**
 * What differs between the databases the server runs on. Every query is written once, with Kysely, and asks the
 * dialect only for these few things; each database has one implementation (`sqlite/`, `postgres/`).
 */
export interface SqlDialect {
  readonly name: "sqlite" | "postgres";
  /** `column` is one of `values`. */
  inList(column: string, values: readonly string[]): Expression<SqlBool>;
  /** A LIMIT or OFFSET value, written as the database plans it best. */
  rowCount(value: number): Expression<number> | number;
  /**
   * Locks the rows a select reads until the transaction ends, so that a read-modify-write by two server instances
   * at once cannot lose an update. Where one writer holds the whole database (SQLite), there is nothing to add.
   */
  lockRows<Query extends LockableQuery<Query>>(query: Query): Query;
  /** As {@link lockRows}, but skips rows another transaction holds: each is claimed by one instance only. */
  claimRows<Query extends LockableQuery<Query>>(query: Query): Query;
  /** Whether an error is the violation of a unique constraint or index. */
  isUniqueViolation(error: unknown): boolean;
  /** Whether a transaction failed only because a concurrent one won (a deadlock), so running it again is right. */
  isTransientConflict(error: unknown): boolean;
}

/** A select query that can lock its rows (Kysely's `forUpdate` and `skipLocked`). */
export interface LockableQuery<Query> {
  forUpdate(): Query;
  skipLocked(): Query;
}
