// Run by a types package's `check:generated` when its generated types differ from its spec's bundle: says what to
// do about it, then fails the check. Plain JavaScript, so that it runs on whichever Node runs the package scripts.
import { readFileSync } from "node:fs";

const { name } = JSON.parse(readFileSync("package.json", "utf8"));
process.stderr.write(
  `${name}: src/generated/ does not match the spec. Run \`pnpm generate\` at the repository root, which bundles ` +
    "the specs and rewrites the generated types, then commit the result.\n",
);
process.exit(1);
