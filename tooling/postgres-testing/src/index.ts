export { findPostgresBinDir } from "./binaries.ts";
export { type PostgresCluster, type StartPostgresOptions, startPostgres } from "./cluster.ts";
export { createDatabase, databaseUrl, dropDatabases } from "./database.ts";
