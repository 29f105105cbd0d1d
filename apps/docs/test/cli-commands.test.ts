import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_ROOT } from "./built-site.ts";

const run = promisify(execFile);

/** The command `npx pigeonhole-server` runs: the bin of the server package the docs are built against. */
const SERVER_PACKAGE = dirname(fileURLToPath(import.meta.resolve("@pigeonhole/server/package.json")));
const BIN = join(SERVER_PACKAGE, "bin/pigeonhole-server.js");

/** Every `npx pigeonhole-server keys create ...` line of the guides, as a reader would copy it. */
async function documentedKeyCommands(): Promise<{ page: string; args: string[] }[]> {
  const pagesDir = join(SITE_ROOT, "src/content/docs");
  const pages = (await readdir(pagesDir, { recursive: true })).filter((page) => page.endsWith(".mdx"));
  const commands: { page: string; args: string[] }[] = [];
  for (const page of pages) {
    for (const line of (await readFile(join(pagesDir, page), "utf8")).split("\n")) {
      const command = /^\s*npx pigeonhole-server (keys create .*)$/.exec(line)?.[1];
      if (command) {
        commands.push({ page, args: command.trim().split(/\s+/) });
      }
    }
  }
  return commands;
}

describe("the guides' `keys create` commands", () => {
  let workingDir: string;

  beforeAll(async () => {
    // The commands use the default database file, which a server running locally has already created.
    workingDir = await mkdtemp(join(tmpdir(), "pigeonhole-docs-cli-"));
    await run(process.execPath, [BIN, "keys", "create", "--service", "inbox", "--create-db"], { cwd: workingDir });
  });

  afterAll(async () => {
    await rm(workingDir, { recursive: true, force: true });
  });

  it("are in the guides", async () => {
    expect((await documentedKeyCommands()).length).toBeGreaterThanOrEqual(2);
  });

  it("each print a new key, run as written", async () => {
    for (const { page, args } of await documentedKeyCommands()) {
      const { stdout } = await run(process.execPath, [BIN, ...args], { cwd: workingDir });
      expect(stdout.trim(), `${page}: pigeonhole-server ${args.join(" ")}`).toMatch(
        /^ph_(inbox|forum)_[A-Za-z0-9]{32}$/,
      );
    }
  });
});
