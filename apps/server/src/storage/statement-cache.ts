import type { Database } from "better-sqlite3";
import type { SqliteDatabase, SqliteStatement } from "kysely";
import { opaqueParameters } from "./opaque-parameters.ts";

/**
 * The database as Kysely's SQLite dialect sees it, with prepared statements reused by their SQL text. Kysely
 * prepares every query afresh, which is a large share of a request's cost; the handlers issue a small, fixed set
 * of query shapes, so a bounded cache holds them all. Reuse is safe: the dialect runs one statement at a time.
 * Parameters are made opaque to the query planner (see `opaqueParameters`), so a statement is planned once.
 */
export function withStatementCache(database: Database, capacity = 512): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = database.prepare(opaqueParameters(sql));
        if (statements.size >= capacity) {
          // Evict the oldest entry; a Map iterates in insertion order.
          const oldest = statements.keys().next().value;
          if (oldest !== undefined) {
            statements.delete(oldest);
          }
        }
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
