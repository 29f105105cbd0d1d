// Generates what the site renders but nobody edits: the reference copies of the bundles with their examples
// attached, the client reference pages and the changelog pages. Run by `build` before `astro build`.
import { fileURLToPath } from "node:url";
import { writeChangelogPages, writeClientPages, writeReferenceSpecs } from "../src/lib/prepare-site.ts";
import { REFERENCE_SPECS } from "../src/lib/reference-specs.ts";

const siteRoot = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

await writeReferenceSpecs({ siteRoot });
const pages = await writeChangelogPages({ siteRoot, repoRoot });
const clients = await writeClientPages({ siteRoot, repoRoot });
process.stdout.write(
  `Prepared ${REFERENCE_SPECS.length} API references, ${clients.length} client pages and ${pages.length} changelog pages.\n`,
);
