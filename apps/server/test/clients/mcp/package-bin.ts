// A package's bin, found as a package manager finds it: through the `bin` field of its public `package.json`.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

export class MissingBinError extends Error {
  override name = "MissingBinError";
}

/** The script of bin `name` in package `packageName`, resolved from this folder. */
export function packageBin(packageName: string, name: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const { bin } = require(manifestPath) as { bin?: string | Record<string, string> };
  const script = typeof bin === "string" ? bin : bin?.[name];
  if (script === undefined) {
    throw new MissingBinError(`${packageName} has no bin named ${name}.`);
  }
  return join(dirname(manifestPath), script);
}
