import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { changelogSlug, findPublishedPackages, readPendingChangesets, renderChangelogPage } from "./changelog.ts";
import { CLIENT_PACKAGES, CLIENT_PAGES_DIR, readClientPage } from "./client-pages.ts";
import { attachCodeSamples } from "./code-samples.ts";
import { checkCoverage, describeCoverageProblems, readExamples } from "./examples.ts";
import { listOperations, type OpenAPIDocument } from "./openapi.ts";
import { openAPIDownloadLine } from "./openapi-files.ts";
import { REFERENCE_SPECS, type ReferenceSpec } from "./reference-specs.ts";

export interface SiteFolders {
  /** `apps/docs`. */
  siteRoot: string;
  /** The repository root, where `packages/`, `apps/` and `.changeset/` are. */
  repoRoot: string;
}

/** Where the generated changelog pages go; the folder holds nothing else and is rewritten on every build. */
export const CHANGELOG_DIR = "src/content/docs/changelog";

/** Reads the bundle a spec package exports. */
export async function readBundle(spec: ReferenceSpec): Promise<OpenAPIDocument> {
  const path = fileURLToPath(import.meta.resolve(spec.bundle));
  return JSON.parse(await readFile(path, "utf8")) as OpenAPIDocument;
}

/** Writes the copies of the bundles that carry the examples; fails, naming each gap, unless every operation has one per language. */
export async function writeReferenceSpecs({ siteRoot }: Pick<SiteFolders, "siteRoot">): Promise<void> {
  const problems: string[] = [];
  const documents: [ReferenceSpec, OpenAPIDocument][] = [];
  for (const spec of REFERENCE_SPECS) {
    const bundle = await readBundle(spec);
    const examples = await readExamples(join(siteRoot, "examples", spec.api));
    const found = describeCoverageProblems(spec.api, checkCoverage(listOperations(bundle), examples));
    problems.push(...found);
    if (found.length === 0) {
      documents.push([spec, linkOpenAPIFile(spec, attachCodeSamples(bundle, examples))]);
    }
  }
  if (problems.length > 0) {
    throw new Error(`The API reference needs one example per operation and language:\n- ${problems.join("\n- ")}`);
  }
  for (const [spec, document] of documents) {
    const target = join(siteRoot, spec.generatedPath);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, `${JSON.stringify(document, null, 2)}\n`);
  }
}

/**
 * The reference copy's description starts with a link to the API's OpenAPI file, so its overview page offers it
 * first (the description ends inside its last section).
 */
function linkOpenAPIFile(spec: ReferenceSpec, document: OpenAPIDocument): OpenAPIDocument {
  const rest = typeof document.info.description === "string" ? `\n\n${document.info.description}` : "";
  return { ...document, info: { ...document.info, description: `${openAPIDownloadLine(spec)}${rest}` } };
}

/** Writes one changelog page per published package of the repository. */
export async function writeChangelogPages({ siteRoot, repoRoot }: SiteFolders): Promise<string[]> {
  const target = join(siteRoot, CHANGELOG_DIR);
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  const packages = await findPublishedPackages(repoRoot, ["packages", "apps"]);
  const pending = await readPendingChangesets(join(repoRoot, ".changeset"));
  const written: string[] = [];
  for (const pkg of packages) {
    const changelog = await readFile(join(pkg.dir, "CHANGELOG.md"), "utf8").catch(() => undefined);
    const file = join(target, `${changelogSlug(pkg.name)}.md`);
    await writeFile(file, renderChangelogPage(pkg, changelog, pending));
    written.push(file);
  }
  return written;
}

/** Writes the client reference: one page per client package, from its README. */
export async function writeClientPages({ siteRoot, repoRoot }: SiteFolders): Promise<string[]> {
  const target = join(siteRoot, CLIENT_PAGES_DIR);
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  const written: string[] = [];
  for (const [order, client] of CLIENT_PACKAGES.entries()) {
    const file = join(target, `${client.folder}.md`);
    await writeFile(file, await readClientPage(repoRoot, client, order));
    written.push(file);
  }
  return written;
}
