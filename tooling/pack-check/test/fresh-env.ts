import { delimiter, isAbsolute, sep } from "node:path";

/**
 * What a user's shell passes to the commands of a fresh project: who and where the user is, locale, terminal,
 * caches, and how to reach the registry. Nothing the workspace's package manager adds to its scripts (`NODE_PATH`,
 * `npm_*`, `pnpm_*`, `PNPM_*`, `INIT_CWD`, ...) is on the list: those would let the project load what it never
 * installed.
 */
const PASSED = new Set([
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "TERM",
  "TZ",
  "TMPDIR",
  "XDG_CACHE_HOME",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
]);
const LOCALE = /^LC_[A-Z]+$/;

/** A PATH entry a package manager put there: relative, or inside some `node_modules` (`.bin`, node-gyp shims). */
function isPackageManagerEntry(entry: string): boolean {
  return !isAbsolute(entry) || entry.split(sep).includes("node_modules");
}

/**
 * The environment for a command in a fresh project: the allowed variables of `parent`, its PATH without any
 * package manager's entries, then `extra` (which may add a directory in front of PATH itself).
 */
export function freshEnv(
  extra: Readonly<Record<string, string>> = {},
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && (PASSED.has(name) || LOCALE.test(name))) {
      env[name] = value;
    }
  }
  env.PATH = (parent.PATH ?? "")
    .split(delimiter)
    .filter((entry) => entry !== "" && !isPackageManagerEntry(entry))
    .join(delimiter);
  return { ...env, ...extra };
}
