// Generates what the site renders but nobody edits: the reference copies of both bundles with their examples
// attached, and the changelog pages. Run by `build` before `astro build`.
import { fileURLToPath } from "node:url";
import { writeChangelogPages, writeReferenceSpecs } from "../src/lib/prepare-site.ts";

const siteRoot = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

await writeReferenceSpecs({ siteRoot });
const pages = await writeChangelogPages({ siteRoot, repoRoot });
process.stdout.write(`Prepared both API references and ${pages.length} changelog pages.\n`);
