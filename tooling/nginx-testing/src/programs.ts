import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

/** Debian puts nginx in /usr/sbin, which is not on every user's PATH. */
const SYSTEM_DIRS = ["/usr/sbin", "/usr/bin", "/sbin", "/bin"];

/** The path of Debian's nginx, or an error that says how to install it. */
export function findNginx(): string {
  const dirs = [...(process.env.PATH ?? "").split(delimiter).filter(Boolean), ...SYSTEM_DIRS];
  const found = dirs.map((dir) => join(dir, "nginx")).find((path) => existsSync(path));
  if (found === undefined) {
    throw new Error(
      `nginx was not found on PATH or in ${SYSTEM_DIRS.join(", ")}. ` +
        "Install Debian's nginx package with `bash scripts/ensure-test-tools.sh`.",
    );
  }
  return found;
}
