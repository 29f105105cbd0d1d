import { existsSync, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";

/** Where Debian's packages put each major version's programs: `/usr/lib/postgresql/<major>/bin`. */
const DEBIAN_ROOT = "/usr/lib/postgresql";

export interface ProgramSearch {
  /** A folder to look in first (`POSTGRES_BIN_DIR`), for an installation outside Debian's layout. */
  readonly binDir?: string | undefined;
  /** The folder holding one folder per major version, as Debian lays it out. */
  readonly debianRoot: string;
  /** The folders of `PATH`, searched last. */
  readonly path: readonly string[];
}

export function defaultSearch(env: NodeJS.ProcessEnv = process.env): ProgramSearch {
  return {
    binDir: env.POSTGRES_BIN_DIR || undefined,
    debianRoot: DEBIAN_ROOT,
    path: (env.PATH ?? "").split(delimiter).filter(Boolean),
  };
}

/** Debian's version folders, newest major first, so that a machine with two majors tests on the newer. */
function debianBinDirs(root: string): string[] {
  if (!existsSync(root)) {
    return [];
  }
  return readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))
    .map((major) => join(root, major, "bin"));
}

/**
 * The folder that holds every one of `programs` (server programs such as `initdb` and `pg_ctl` must come from the same
 * installation), or an error that says how to install them.
 */
export function findPostgresBinDir(programs: readonly string[], search: ProgramSearch = defaultSearch()): string {
  const candidates = [...(search.binDir ? [search.binDir] : []), ...debianBinDirs(search.debianRoot), ...search.path];
  const found = candidates.find((dir) => programs.every((program) => existsSync(join(dir, program))));
  if (found === undefined) {
    throw new Error(
      `PostgreSQL's ${programs.join(", ")} were not found in POSTGRES_BIN_DIR, ${DEBIAN_ROOT}/<major>/bin or PATH. ` +
        "Install Debian's postgresql package with `bash scripts/ensure-test-tools.sh`, " +
        "or point POSTGRES_BIN_DIR at the folder holding the programs of another installation.",
    );
  }
  return found;
}
