import type { Expression, Kysely, QueryExecutorProvider, SqlBool, Transaction } from "kysely";
import type { DatabaseSchema } from "./schema.ts";

/**
 * What differs between the databases the server runs on. Every query is written once, with Kysely, and asks the
 * dialect only for these few things; each database has one implementation (`sqlite/`, `postgres/`).
 */
export interface SqlDialect {
  readonly name: "sqlite" | "postgres";
  /** A list of strings as one query parameter, for {@link inList}: the same statement serves every length. */
  listParam(values: readonly string[]): unknown;
  /** `column` is one of the values of `list`, a parameter made by {@link listParam}. */
  inList(column: string, list: unknown): Expression<SqlBool>;
  /** The JSON array of strings in `column` holds every value of `list`, a parameter made by {@link listParam}. */
  containsAll(column: string, list: unknown): Expression<SqlBool>;
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
  /**
   * Tells every instance on the database, once `trx` commits, that `channel` has news (`payload`). Where the database
   * serves one instance (SQLite) there is no one else to tell: the instance wakes its own listeners.
   */
  notifyOnCommit(trx: QueryExecutorProvider, channel: string, payload: string): Promise<void>;
  /**
   * Runs `work`, whose reads see one snapshot of the database: rows read by separate statements agree with each
   * other even while writers commit in between.
   */
  readSnapshot<T>(db: Kysely<DatabaseSchema>, work: (trx: Transaction<DatabaseSchema>) => Promise<T>): Promise<T>;
}

/** A select query that can lock its rows (Kysely's `forUpdate` and `skipLocked`). */
export interface LockableQuery<Query> {
  forUpdate(): Query;
  skipLocked(): Query;
}

/** Values made once per dialect (such as its prepared queries), on first use. */
export function perDialect<T>(make: (dialect: SqlDialect) => T): (dialect: SqlDialect) => T {
  const made = new WeakMap<SqlDialect, T>();
  return (dialect) => {
    let value = made.get(dialect);
    if (value === undefined) {
      value = make(dialect);
      made.set(dialect, value);
    }
    return value;
  };
}
