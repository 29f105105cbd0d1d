import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

/** Debian puts Postfix's and Cyrus SASL's programs in /usr/sbin, which is not on every user's PATH. */
const SYSTEM_DIRS = ["/usr/sbin", "/usr/bin", "/sbin", "/bin"];

/** The path of a program from one of Debian's packages, or an error that says how to install the package. */
export function findProgram(name: string, debianPackage: string): string {
  const dirs = [...(process.env.PATH ?? "").split(delimiter).filter(Boolean), ...SYSTEM_DIRS];
  const found = dirs.map((dir) => join(dir, name)).find((path) => existsSync(path));
  if (found === undefined) {
    throw new Error(
      `${name} was not found on PATH or in ${SYSTEM_DIRS.join(", ")}. ` +
        `Install Debian's ${debianPackage} package with \`bash scripts/ensure-test-tools.sh\`.`,
    );
  }
  return found;
}
