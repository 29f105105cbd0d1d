import type { Transaction } from "kysely";
import type { ServerDatabase } from "./database.ts";
import type { DatabaseSchema } from "./schema.ts";
import type { SqlDialect } from "./sql-dialect.ts";

const MAX_ATTEMPTS = 3;

/**
 * Runs `work` in one transaction. Two transactions that lock the same rows in opposite orders deadlock on
 * PostgreSQL; the database aborts one, which is then run again from the start.
 */
export async function retryingTransaction<T>(
  db: ServerDatabase,
  dialect: SqlDialect,
  work: (trx: Transaction<DatabaseSchema>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !dialect.isTransientConflict(error)) {
        throw error;
      }
    }
  }
}
