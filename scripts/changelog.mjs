// How `changeset version` writes each CHANGELOG.md entry. A package's own changes are one line per changeset, as
// with the default generator; a release that only picks up new versions of its dependencies gets a single
// "Updated dependencies" entry listing them (the default wrote one line per changeset behind the update, so one
// change showed up several times, and again beside the package's own line for it).

/**
 * @typedef {{ summary: string, commit?: string }} Changeset
 * @typedef {{ name: string, newVersion: string }} UpdatedDependency
 */

/** @param {Changeset} changeset */
export function getReleaseLine(changeset) {
  const [firstLine = "", ...moreLines] = changeset.summary.split("\n").map((line) => line.trimEnd());
  const commit = changeset.commit ? `${changeset.commit.slice(0, 7)}: ` : "";
  return [`- ${commit}${firstLine}`, ...moreLines.map((line) => `  ${line}`)].join("\n");
}

/**
 * @param {Changeset[]} _changesets the changesets behind the updates: each has its own entry in its package's log
 * @param {UpdatedDependency[]} dependencies
 */
export function getDependencyReleaseLine(_changesets, dependencies) {
  if (dependencies.length === 0) {
    return "";
  }
  const versions = [...new Set(dependencies.map(({ name, newVersion }) => `  - ${name}@${newVersion}`))];
  return ["- Updated dependencies", ...versions].join("\n");
}

export default { getReleaseLine, getDependencyReleaseLine };
