// `generate` rewrites the options tables of the server's README and of the deployment guide from the option table
// (src/options/option-table.ts); `check:generated` (--check) fails when a committed table differs from it.
// --root points at another copy of the repository (the tests' own).
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { staleDocuments, writeTables } from "./option-tables.ts";

const { values } = parseArgs({ options: { check: { type: "boolean" }, root: { type: "string" } } });
const root = values.root ?? fileURLToPath(new URL("../../../", import.meta.url));

if (values.check) {
  const stale = staleDocuments(root);
  for (const path of stale) {
    process.stderr.write(
      `${path}: its options table differs from apps/server/src/options/option-table.ts. Run \`pnpm generate\` at ` +
        "the repository root, then commit the result.\n",
    );
  }
  process.exitCode = stale.length === 0 ? 0 : 1;
} else {
  for (const path of writeTables(root)) {
    process.stdout.write(`Rewrote the options table of ${path}.\n`);
  }
}
