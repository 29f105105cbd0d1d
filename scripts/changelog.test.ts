// Runs `changeset version` with this repository's changeset configuration on a small throw-away monorepo, and reads
// the changelogs it writes.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const changesetBin = require.resolve("@changesets/cli/bin.js");
const config = JSON.parse(await readFile(new URL("../.changeset/config.json", import.meta.url), "utf8")) as {
  changelog: string;
};

let repo: string;

const write = async (path: string, content: unknown) => {
  await mkdir(join(repo, path, ".."), { recursive: true });
  await writeFile(join(repo, path), typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`);
};
const run = (command: string, args: string[]) =>
  execFileSync(command, args, { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const changeset = (releases: Record<string, string>, summary: string) =>
  `---\n${Object.entries(releases)
    .map(([name, bump]) => `"${name}": ${bump}`)
    .join("\n")}\n---\n\n${summary}\n`;

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), "pigeonhole-changelog-"));
  await write("package.json", { name: "fixture", private: true });
  await write("pnpm-workspace.yaml", "packages:\n  - packages/*\n");
  await write("packages/types/package.json", { name: "@fixture/types", version: "0.1.0" });
  await write("packages/client/package.json", {
    name: "@fixture/client",
    version: "0.1.0",
    dependencies: { "@fixture/types": "workspace:*" },
  });
  await write("packages/server/package.json", {
    name: "@fixture/server",
    version: "0.1.0",
    dependencies: { "@fixture/types": "workspace:*" },
  });
  // This repository's configuration, its changelog generator resolved from here.
  await write(".changeset/config.json", {
    ...config,
    changelog: new URL(config.changelog, new URL("../.changeset/", import.meta.url)).pathname,
  });
  run("git", ["init", "-q", "-b", "main"]);
  run("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "start"]);
  // Two changes to the types in one commit, one of which the server ships too.
  await write(".changeset/first.md", changeset({ "@fixture/types": "minor" }, "A new field."));
  await write(
    ".changeset/second.md",
    changeset({ "@fixture/types": "patch", "@fixture/server": "patch" }, "A fixed description; the server sends it."),
  );
  run("git", ["add", "."]);
  run("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "changes"]);
  run(process.execPath, [changesetBin, "version"]);
  // A git repository and a run of the changesets CLI take seconds alone and more beside the rest of the build.
}, 120_000);

afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
});

const changelogOf = (name: string) => readFile(join(repo, "packages", name, "CHANGELOG.md"), "utf8");
const count = (text: string, line: string) => text.split("\n").filter((candidate) => candidate === line).length;

describe("changelog entries written by changeset version", () => {
  it("list each change of a package once", async () => {
    const types = await changelogOf("types");
    expect(types).toMatch(/^- [0-9a-f]{7}: A new field\.$/m);
    expect(types).toMatch(/^- [0-9a-f]{7}: A fixed description; the server sends it\.$/m);
  });

  it("give a package that only picks up new dependencies one entry naming them", async () => {
    const client = await changelogOf("client");
    expect(count(client, "- Updated dependencies")).toBe(1);
    expect(client).not.toMatch(/Updated dependencies \[/);
    expect(count(client, "  - @fixture/types@0.2.0")).toBe(1);
  });

  it("do not repeat a change a package ships itself as a dependency update", async () => {
    const server = await changelogOf("server");
    expect(server.match(/A fixed description/g)).toHaveLength(1);
    expect(count(server, "- Updated dependencies")).toBe(1);
  });
});
