// Imported first by the library's entry and by the CLI, so that it is evaluated before the database opens: a Node
// older than the one named in `engines` lacks the `node:sqlite` features the storage layer uses.
import { readFileSync } from "node:fs";
import semver from "semver";

export class UnsupportedNodeError extends Error {
  override name = "UnsupportedNodeError";
}

/** The Node versions this package supports: its own `engines.node`, so the check and the manifest cannot disagree. */
export function requiredNodeRange(): string {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    name: string;
    engines?: { node?: string };
  };
  const range = manifest.engines?.node;
  if (!range || semver.validRange(range) === null) {
    throw new Error(`${manifest.name} declares no valid engines.node range.`);
  }
  return range;
}

/** Throws {@link UnsupportedNodeError}, naming the required versions, unless `version` satisfies them. */
export function assertSupportedNode(version: string = process.versions.node): void {
  const range = requiredNodeRange();
  if (!semver.satisfies(version, range)) {
    const minimum = semver.minVersion(range)?.version ?? range;
    throw new UnsupportedNodeError(
      `@pigeonhole/server needs Node.js ${range}, but this is Node.js ${version}. ` +
        `Install Node.js ${minimum} or newer and run it again.`,
    );
  }
}

assertSupportedNode();
