import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, SITE_ROOT } from "./built-site.ts";

const run = promisify(execFile);

/** Astro's command line, as its package's `bin` names it. */
const ASTRO = join(dirname(fileURLToPath(import.meta.resolve("astro/package.json"))), "bin/astro.mjs");

/** Astro's log lines carry their level in brackets: `12:00:00 [WARN] [content] ...`. */
const WARNING = /\[(WARN|ERROR)\]/;

describe("the docs build", () => {
  let outDir: string;
  let output: string[];

  beforeAll(async () => {
    // The reference copies of the bundles come from `build`'s first step; this test rebuilds only the site.
    assertBuilt();
    outDir = await mkdtemp(join(tmpdir(), "pigeonhole-docs-build-"));
    const { NODE_ENV: _testMode, ...env } = process.env;
    const { stdout, stderr } = await run(process.execPath, [ASTRO, "build", "--outDir", outDir], {
      cwd: SITE_ROOT,
      env: { ...env, ASTRO_TELEMETRY_DISABLED: "1", FORCE_COLOR: "0" },
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    output = `${stdout}\n${stderr}`.split("\n");
  }, 150_000);

  afterAll(async () => {
    if (outDir) {
      await rm(outDir, { recursive: true, force: true });
    }
  });

  it("completes and prints no warning", () => {
    expect(output.some((line) => line.includes("Complete!"))).toBe(true);
    expect(output.filter((line) => WARNING.test(line))).toEqual([]);
  });
});
