import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { findPostgresBinDir } from "./binaries.ts";
import { runProgram } from "./run-program.ts";

/** Names needing no quoting anywhere: PostgreSQL folds unquoted names to lower case and cuts them at 63 bytes. */
const DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function checkName(name: string): void {
  if (!DATABASE_NAME.test(name)) {
    throw new Error(
      `Database name ${JSON.stringify(name)} must be 1 to 63 of a-z, 0-9 and _, not starting with a digit`,
    );
  }
}

/** The server's address with `database` in place of the one it named. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * Creates an empty database on the server that `serverUrl` reaches (any database of it, with a user allowed to create
 * databases) and answers its address. Without a name, a random one.
 */
export async function createDatabase(
  serverUrl: string,
  name = `test_${randomBytes(6).toString("hex")}`,
): Promise<string> {
  checkName(name);
  const createdb = join(findPostgresBinDir(["createdb"]), "createdb");
  await runProgram(createdb, [`--maintenance-db=${serverUrl}`, name]);
  return databaseUrl(serverUrl, name);
}

/** Drops every database whose name starts with `prefix`, disconnecting whoever still uses them. */
export async function dropDatabases(serverUrl: string, prefix: string): Promise<string[]> {
  checkName(prefix);
  const psql = join(findPostgresBinDir(["psql"]), "psql");
  const query = `select datname from pg_database where starts_with(datname, '${prefix}') order by datname`;
  const names = (await runProgram(psql, ["--no-psqlrc", "--tuples-only", "--no-align", "--command", query, serverUrl]))
    .split("\n")
    .filter(Boolean);
  if (names.length > 0) {
    // One --command each: DROP DATABASE cannot run inside the transaction that a multi-statement command would be.
    const drops = names.flatMap((name) => ["--command", `drop database "${name.replaceAll('"', '""')}" with (force)`]);
    await runProgram(psql, ["--no-psqlrc", "--set", "ON_ERROR_STOP=1", ...drops, serverUrl]);
  }
  return names;
}
