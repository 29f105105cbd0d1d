import type { Insertable } from "kysely";
import type { ServerDatabase } from "./database.ts";
import { PreparedInsert } from "./prepared-query.ts";
import type { DatabaseSchema } from "./schema.ts";

/**
 * Writes rows into `table`, each as the columns `toColumns` makes of it, a few rows to a prepared statement; no rows,
 * no statement. `toColumns` is given stand-ins for the rows and must pass each field on unchanged (see
 * {@link PreparedInsert}).
 */
export function insertRows<Table extends keyof DatabaseSchema, Row extends object>(
  table: Table,
  toColumns: (row: Row) => Insertable<DatabaseSchema[Table]>,
): (db: ServerDatabase, rows: readonly Row[]) => Promise<void> {
  const insert = new PreparedInsert((db, rows: readonly Row[]) =>
    // Kysely cannot follow a generic table name; `toColumns` makes rows of `table`.
    db.insertInto(table).values(rows.map((row) => toColumns(row)) as never),
  );
  return (db, rows) => insert.execute(db, rows);
}
