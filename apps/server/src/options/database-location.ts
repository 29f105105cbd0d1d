import { resolve } from "node:path";
import { isPostgresUrl } from "../storage/open-storage.ts";
import { DEFAULT_DATABASE_FILE } from "./defaults.ts";
import type { CommandLineValues } from "./option-table.ts";
import { OPTIONS } from "./option-table.ts";

/**
 * The database a command line names: `--database` (or its older name `--db`), else its environment variable, else
 * the default file; a file as an absolute path.
 */
export function databaseLocation(
  values: CommandLineValues,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const location = values.database ?? (env[OPTIONS.database.env.name] || DEFAULT_DATABASE_FILE);
  return isPostgresUrl(location) || location === ":memory:" ? location : resolve(location);
}
