import { readFile } from "node:fs/promises";
import { join, posix } from "node:path";
import { SITE_URL } from "./site-address.ts";

/**
 * The client reference: one page per client package, made from the package's README at every build. The README is
 * the one text of each client's options, errors, hooks, pagination and events; the site shows it as npm does.
 */
export interface ClientPackage {
  /** The package's folder under `packages/`, also the page's slug. */
  readonly folder: string;
}

/** The clients a reader installs first, then the runtime they share. */
export const CLIENT_PACKAGES: readonly ClientPackage[] = [
  { folder: "inbox" },
  { folder: "forum" },
  { folder: "test-control" },
  { folder: "client-core" },
];

/** Where the generated pages go; the folder holds nothing else and is rewritten on every build. */
export const CLIENT_PAGES_DIR = "src/content/docs/clients";

/** Where the repository's files are read on the web, for README links that point into the repository. */
const REPOSITORY_TREE = "https://github.com/pigeonhole-dev/pigeonhole/tree/main/";

/** Where the guides' sources live in the repository: a README link to one becomes a link to its page. */
const GUIDE_SOURCES = "apps/docs/src/content/docs/";

interface PackageJson {
  name: string;
  description?: string;
}

/** The page's route for a link target of a README in `packages/<folder>/`, or the target when it leaves the repo. */
export function rewriteReadmeLink(target: string, folder: string): string {
  if (target.startsWith(`${SITE_URL}/`)) {
    return target.slice(SITE_URL.length);
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#") || target.startsWith("/")) {
    return target;
  }
  const [path = "", hash] = target.split("#", 2);
  const resolved = posix.normalize(posix.join("packages", folder, path));
  const anchor = hash === undefined ? "" : `#${hash}`;
  const client = CLIENT_PACKAGES.find((candidate) => resolved === `packages/${candidate.folder}/README.md`);
  if (client) {
    return `/clients/${client.folder}/${anchor}`;
  }
  if (resolved.startsWith(GUIDE_SOURCES)) {
    const slug = resolved.slice(GUIDE_SOURCES.length).replace(/(\/index)?\.mdx?$/, "");
    return `/${slug === "index" ? "" : `${slug}/`}${anchor}`;
  }
  return `${REPOSITORY_TREE}${resolved}${anchor}`;
}

/** The Markdown page of one client: its README without the title, which the page's title replaces. */
export function renderClientPage(pkg: PackageJson, readme: string, folder: string, order: number): string {
  const body = readme
    .replace(/^\s*# .*\n/, "")
    .replace(/\]\(([^)\s]+)\)/g, (_link, target: string) => `](${rewriteReadmeLink(target, folder)})`)
    .trim();
  return [
    "---",
    `title: ${JSON.stringify(pkg.name)}`,
    `description: ${JSON.stringify(pkg.description ?? `The ${pkg.name} package.`)}`,
    `sidebar: { order: ${order} }`,
    "---",
    "",
    `The README of \`${pkg.name}\`, as published on npm.`,
    "",
    body,
    "",
  ].join("\n");
}

/** Reads a client package's manifest and README and renders its page. */
export async function readClientPage(repoRoot: string, client: ClientPackage, order: number): Promise<string> {
  const dir = join(repoRoot, "packages", client.folder);
  const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as PackageJson;
  return renderClientPage(pkg, await readFile(join(dir, "README.md"), "utf8"), client.folder, order);
}
