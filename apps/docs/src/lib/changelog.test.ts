import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { changelogSlug, findPublishedPackages, readPendingChangesets, renderChangelogPage } from "./changelog.ts";
import { writeChangelogPages } from "./prepare-site.ts";

/** A repository with two published packages, a private one, a release behind one of them and pending changesets. */
async function fixtureRepo(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "pigeonhole-changelog-"));
  const manifest = async (dir: string, json: object) => {
    await mkdir(join(root, dir), { recursive: true });
    await writeFile(join(root, dir, "package.json"), JSON.stringify(json));
  };
  await manifest("packages/inbox", { name: "@pigeonhole/inbox", description: "The inbox client." });
  await manifest("packages/secret", { name: "@pigeonhole/secret", private: true });
  await manifest("apps/server", { name: "@pigeonhole/server", description: "The local server." });
  await writeFile(
    join(root, "packages/inbox/CHANGELOG.md"),
    "# @pigeonhole/inbox\n\n## 0.1.0\n\n### Minor Changes\n\n- 1a2b3c4: feat(inbox): the first client\n",
  );
  await mkdir(join(root, ".changeset"));
  await writeFile(join(root, ".changeset/README.md"), "# Changesets\n\nHow to write one.\n");
  await writeFile(join(root, ".changeset/config.json"), "{}");
  await writeFile(
    join(root, ".changeset/brave-owls-sing.md"),
    '---\n"@pigeonhole/inbox": minor\n"@pigeonhole/server": minor\n---\n\nfeat(inbox): list threads\n',
  );
  await writeFile(
    join(root, ".changeset/quiet-fish-swim.md"),
    '---\n"@pigeonhole/inbox": patch\n---\n\nfix(inbox): retry 503\n',
  );
  return root;
}

describe("findPublishedPackages", () => {
  it("lists the public packages of the given folders, by name", async () => {
    const root = await fixtureRepo();
    const found = await findPublishedPackages(root, ["packages", "apps", "missing"]);
    expect(found.map((pkg) => [pkg.name, pkg.dir])).toEqual([
      ["@pigeonhole/inbox", join(root, "packages/inbox")],
      ["@pigeonhole/server", join(root, "apps/server")],
    ]);
  });
});

describe("readPendingChangesets", () => {
  it("parses every changeset but the README", async () => {
    const root = await fixtureRepo();
    expect(await readPendingChangesets(join(root, ".changeset"))).toEqual([
      {
        id: "brave-owls-sing",
        summary: "feat(inbox): list threads",
        releases: [
          { name: "@pigeonhole/inbox", type: "minor" },
          { name: "@pigeonhole/server", type: "minor" },
        ],
      },
      {
        id: "quiet-fish-swim",
        summary: "fix(inbox): retry 503",
        releases: [{ name: "@pigeonhole/inbox", type: "patch" }],
      },
    ]);
  });
});

describe("renderChangelogPage", () => {
  const pending = [
    {
      id: "a",
      summary: "feat(inbox): list threads",
      releases: [{ name: "@pigeonhole/inbox", type: "minor" as const }],
    },
    { id: "b", summary: "fix(forum): votes", releases: [{ name: "@pigeonhole/forum", type: "patch" as const }] },
  ];

  it("shows the package's pending changesets as Unreleased above its released versions", () => {
    const page = renderChangelogPage(
      { name: "@pigeonhole/inbox", description: "The inbox client." },
      "# @pigeonhole/inbox\n\n## 0.1.0\n\n- first\n",
      pending,
    );
    expect(page).toBe(
      [
        "---",
        'title: "@pigeonhole/inbox"',
        'description: "Release notes of @pigeonhole/inbox."',
        "---",
        "",
        "The inbox client.",
        "",
        "## Unreleased",
        "",
        "### Minor changes",
        "",
        "- feat(inbox): list threads",
        "",
        "## 0.1.0",
        "",
        "- first",
        "",
      ].join("\n"),
    );
  });

  it("says so when a package has neither a release nor a pending change", () => {
    const page = renderChangelogPage({ name: "@pigeonhole/quiet", description: "" }, undefined, pending);
    expect(page).toContain("No release yet, and no change waiting for one.");
    expect(page).not.toContain("Unreleased");
  });
});

describe("writeChangelogPages", () => {
  it("writes one page per published package from its changelog and the pending changesets", async () => {
    const repoRoot = await fixtureRepo();
    const siteRoot = await mkdtemp(join(tmpdir(), "pigeonhole-site-"));
    const written = await writeChangelogPages({ siteRoot, repoRoot });
    expect(written.map((path) => path.slice(siteRoot.length))).toEqual([
      "/src/content/docs/changelog/inbox.md",
      "/src/content/docs/changelog/server.md",
    ]);
    const inbox = await readFile(written[0] ?? "", "utf8");
    expect(inbox).toMatch(
      /## Unreleased\n\n### Minor changes\n\n- feat\(inbox\): list threads\n\n### Patch changes\n\n- fix\(inbox\): retry 503\n\n## 0\.1\.0/,
    );
    expect(inbox).toContain("- 1a2b3c4: feat(inbox): the first client");
    const server = await readFile(written[1] ?? "", "utf8");
    expect(server).toContain("- feat(inbox): list threads");
    expect(server).not.toContain("retry 503");
  });

  it("names pages after the package without its scope", () => {
    expect(changelogSlug("@pigeonhole/inbox-types")).toBe("inbox-types");
    expect(changelogSlug("unscoped")).toBe("unscoped");
  });
});
