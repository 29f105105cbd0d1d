import type { ColumnDataType, ColumnDefinitionBuilder } from "kysely";

/**
 * The column types that the two databases spell differently. Migrations are written once against these; SQLite's
 * spellings are the ones its first schema shipped with.
 */
export interface ColumnTypes {
  /** A row number the database assigns, for keyset paging. */
  serial: ColumnDataType;
  serialKey(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  bytes: ColumnDataType;
  /** Unix milliseconds, beyond 32 bits. */
  epochMs: ColumnDataType;
  double: ColumnDataType;
}

export const sqliteColumnTypes: ColumnTypes = {
  serial: "integer",
  serialKey: (column) => column.primaryKey().autoIncrement(),
  bytes: "blob",
  epochMs: "integer",
  double: "real",
};

export const postgresColumnTypes: ColumnTypes = {
  serial: "serial",
  serialKey: (column) => column.primaryKey(),
  bytes: "bytea",
  epochMs: "bigint",
  double: "double precision",
};
