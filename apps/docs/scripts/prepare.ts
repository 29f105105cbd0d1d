// Generates what the site renders but nobody edits: the reference copies of the bundles with their examples
// attached, and the changelog pages. Run by `build` before `astro build`.
import { fileURLToPath } from "node:url";
import { writeChangelogPages, writeReferenceSpecs } from "../src/lib/prepare-site.ts";
import { REFERENCE_SPECS } from "../src/lib/reference-specs.ts";

const siteRoot = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

await writeReferenceSpecs({ siteRoot });
const pages = await writeChangelogPages({ siteRoot, repoRoot });
process.stdout.write(`Prepared ${REFERENCE_SPECS.length} API references and ${pages.length} changelog pages.\n`);
