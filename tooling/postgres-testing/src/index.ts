export { findPostgresBinDir } from "./binaries.js";
export { type PostgresCluster, type StartPostgresOptions, startPostgres } from "./cluster.js";
export { createDatabase, databaseUrl, dropDatabases } from "./database.js";
