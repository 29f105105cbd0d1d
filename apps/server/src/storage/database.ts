import type { Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import type { ColumnTypes } from "./migrations/column-types.ts";
import { migrationProvider } from "./migrations/migration-provider.ts";
import type { DatabaseSchema } from "./schema.ts";

export type ServerDatabase = Kysely<DatabaseSchema>;

export class MigrationFailedError extends Error {
  override name = "MigrationFailedError";
}

/**
 * Brings the schema up to date. Kysely's migrator holds a lock meanwhile (on PostgreSQL an advisory lock), so
 * instances that start together migrate once.
 */
export async function migrateToLatest(db: ServerDatabase, types: ColumnTypes, location: string): Promise<void> {
  const { error } = await new Migrator({ db, provider: migrationProvider(types) }).migrateToLatest();
  if (error) {
    throw new MigrationFailedError(`Could not migrate the database ${location}: ${String(error)}`, { cause: error });
  }
}
