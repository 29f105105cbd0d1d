import { resolve } from "node:path";
import { isPostgresUrl } from "../storage/open-storage.ts";
import { DEFAULT_DATABASE_FILE } from "./defaults.ts";
import type { CommandLineValues } from "./option-table.ts";

/**
 * The database that options name (the command line's, with the environment's): `--database` (or its older name
 * `--db`, or `PIGEONHOLE_DATABASE_URL`), else the default file; a file as an absolute path.
 */
export function databaseLocation(values: CommandLineValues): string {
  const location = values.database ?? DEFAULT_DATABASE_FILE;
  return isPostgresUrl(location) || location === ":memory:" ? location : resolve(location);
}
