import { execFile } from "node:child_process";
import { appendFile, copyFile, mkdir, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_ROOT } from "./built-site.ts";

const run = promisify(execFile);

const REPO_ROOT = join(SITE_ROOT, "../..");
const TYPES_PACKAGE = "packages/forum-types";

/** What `run` rejects with: the process's output and exit code on top of the error. */
interface ProcessFailure {
  code?: number;
  stderr?: string;
}

/** Runs the types package's `check:generated` in `root`, as `pnpm test` does; resolves with its exit code and stderr. */
async function checkGenerated(root: string): Promise<{ code: number; stderr: string }> {
  return run("pnpm", ["run", "--silent", "check:generated"], { cwd: join(root, TYPES_PACKAGE), timeout: 60_000 }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: ProcessFailure) => ({ code: error.code ?? -1, stderr: error.stderr ?? "" }),
  );
}

/**
 * The drift check that "Extending an API" describes, run on a copy of the files it reads: the forum types package's
 * manifest and generated types, the forum bundle, and the script that explains a failure.
 */
describe("the generated types' drift check", () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "pigeonhole-drift-"));
    const files = [
      `${TYPES_PACKAGE}/package.json`,
      `${TYPES_PACKAGE}/src/generated/schema.ts`,
      `${TYPES_PACKAGE}/src/generated/calls.ts`,
      "specs/forum/dist/openapi.json",
      "scripts/generated-types-stale.mjs",
    ];
    for (const file of files) {
      await mkdir(join(root, file, ".."), { recursive: true });
      await copyFile(join(REPO_ROOT, file), join(root, file));
    }
    await symlink(join(REPO_ROOT, TYPES_PACKAGE, "node_modules"), join(root, TYPES_PACKAGE, "node_modules"), "dir");
  });

  afterAll(async () => {
    if (root) {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("passes while the generated types match the bundle", async () => {
    await expect(checkGenerated(root)).resolves.toMatchObject({ code: 0 });
  });

  it.each(["schema.ts", "calls.ts"])(
    "fails once %s differs, saying to run `pnpm generate` in the words the guide quotes",
    async (file) => {
      const generated = join(root, TYPES_PACKAGE, "src/generated", file);
      await appendFile(generated, "export type Stale = true;\n");
      const { code, stderr } = await checkGenerated(root);
      await copyFile(join(REPO_ROOT, TYPES_PACKAGE, "src/generated", file), generated);
      expect(code).not.toBe(0);
      expect(stderr).toContain("Run `pnpm generate` at the repository root");

      const guide = await readFile(join(SITE_ROOT, "src/content/docs/guides/extending-an-api.mdx"), "utf8");
      const quoted = guide.split("\n").filter((line) => line.startsWith("@pigeonhole/forum-types: "));
      expect(quoted).toHaveLength(1);
      expect(stderr.split("\n")).toContain(quoted[0]);
    },
  );
});
