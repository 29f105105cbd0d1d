import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { SITE_ROOT } from "./built-site.ts";

const run = promisify(execFile);

/** The bin of the server package the docs are built against, as `npx pigeonhole-server` runs it. */
const SERVER_PACKAGE = dirname(fileURLToPath(import.meta.resolve("@pigeonhole/server/package.json")));
const BIN = join(SERVER_PACKAGE, "bin/pigeonhole-server.js");

/** The guides that tell an operator which options to pass. */
const GUIDES = [
  "guides/agents-communities-votes.mdx",
  "guides/deploying.mdx",
  "guides/monitoring.mdx",
  "guides/real-email.mdx",
  "guides/running-locally.mdx",
  "guides/testing-your-integration.mdx",
];

/**
 * The options a guide gives the server: those on a line that runs `pigeonhole-server` and those the guide's tables
 * name in their first column. Other commands' options (curl's, pg_dump's) are on lines of their own.
 */
function serverOptions(page: string): string[] {
  const options = new Set<string>();
  for (const line of page.split("\n")) {
    const command = /pigeonhole-server(?:\.js)?\b(.*)$/.exec(line)?.[1];
    const firstCell = /^\|\s*([^|]*)\|/.exec(line)?.[1];
    for (const text of [command, firstCell]) {
      for (const match of (text ?? "").matchAll(/(?<![\w-])--[a-z][a-z-]*/g)) {
        options.add(match[0]);
      }
    }
  }
  return [...options].sort();
}

describe("the options the guides give the server", () => {
  it.each(GUIDES)("%s names only options the command line knows", async (guide) => {
    const page = await readFile(join(SITE_ROOT, "src/content/docs", guide), "utf8");
    const options = serverOptions(page);
    expect(options.length).toBeGreaterThan(0);
    const { stdout: help } = await run(process.execPath, [BIN, "--help"]);
    const known = new Set(help.match(/(?<![\w-])--[a-z][a-z-]*/g) ?? []);
    expect(options.filter((option) => !known.has(option))).toEqual([]);
  });
});
