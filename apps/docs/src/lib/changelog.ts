import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseChangesetFile } from "@changesets/parse";

export interface PublishedPackage {
  name: string;
  description: string;
  /** Absolute folder of the package. */
  dir: string;
}

export type Bump = "major" | "minor" | "patch" | "none";

export interface PendingChangeset {
  /** The file name without `.md`, as changesets names it. */
  id: string;
  summary: string;
  releases: { name: string; type: Bump }[];
}

interface PackageJson {
  name?: string;
  description?: string;
  private?: boolean;
}

/** Every workspace package under `groups` (folders of the repository root) that is published, sorted by name. */
export async function findPublishedPackages(root: string, groups: readonly string[]): Promise<PublishedPackage[]> {
  const found: PublishedPackage[] = [];
  for (const group of groups) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) {
      continue;
    }
    for (const entry of await readdir(groupDir, { withFileTypes: true })) {
      const manifestPath = join(groupDir, entry.name, "package.json");
      if (!entry.isDirectory() || !existsSync(manifestPath)) {
        continue;
      }
      const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as PackageJson;
      if (manifest.private || !manifest.name) {
        continue;
      }
      found.push({ name: manifest.name, description: manifest.description ?? "", dir: join(groupDir, entry.name) });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** The changesets waiting in `dir` (`.changeset/`), i.e. every `*.md` but its README. */
export async function readPendingChangesets(dir: string): Promise<PendingChangeset[]> {
  if (!existsSync(dir)) {
    return [];
  }
  const names = (await readdir(dir)).filter((name) => name.endsWith(".md") && name.toLowerCase() !== "readme.md");
  const changesets: PendingChangeset[] = [];
  for (const name of names.sort()) {
    const { summary, releases } = parseChangesetFile(await readFile(join(dir, name), "utf8"));
    changesets.push({ id: name.slice(0, -".md".length), summary, releases });
  }
  return changesets;
}

const SECTIONS: readonly [Bump, string][] = [
  ["major", "Major changes"],
  ["minor", "Minor changes"],
  ["patch", "Patch changes"],
];

/** The page slug of a package: its name without the scope (`@pigeonhole/inbox` → `inbox`). */
export function changelogSlug(packageName: string): string {
  return packageName.replace(/^@[^/]+\//, "");
}

/**
 * The Markdown page of one package: its pending changesets as "Unreleased", then its CHANGELOG.md (written by
 * `changeset version` at each release) without the file's own title, which the page title replaces.
 */
export function renderChangelogPage(
  pkg: Pick<PublishedPackage, "name" | "description">,
  changelog: string | undefined,
  pending: readonly PendingChangeset[],
): string {
  const lines = [
    "---",
    `title: ${JSON.stringify(pkg.name)}`,
    `description: ${JSON.stringify(`Release notes of ${pkg.name}.`)}`,
    "---",
    "",
  ];
  if (pkg.description) {
    lines.push(pkg.description, "");
  }

  const mine = pending.flatMap((changeset) =>
    changeset.releases
      .filter((release) => release.name === pkg.name && release.type !== "none")
      .map((release) => ({ type: release.type, summary: changeset.summary })),
  );
  if (mine.length > 0) {
    lines.push("## Unreleased", "");
    for (const [type, heading] of SECTIONS) {
      const entries = mine.filter((entry) => entry.type === type);
      if (entries.length === 0) {
        continue;
      }
      lines.push(`### ${heading}`, "");
      for (const entry of entries) {
        lines.push(`- ${entry.summary.trim().replaceAll("\n", "\n  ")}`);
      }
      lines.push("");
    }
  }

  const released = changelog?.replace(/^\s*# .*\n/, "").trim();
  if (released) {
    lines.push(released, "");
  }
  if (mine.length === 0 && !released) {
    lines.push("No release yet, and no change waiting for one.", "");
  }
  return lines.join("\n");
}
