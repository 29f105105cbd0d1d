// Runs `redocly lint` with the real rule set over a copy of one API's spec, so tests can break the copy on purpose.
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";

const specsDir = dirname(dirname(fileURLToPath(import.meta.url)));
const redocly = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");

/** The APIs of `specs/`, each with the name `redocly.yaml` registers it under. */
const API_NAMES = { inbox: "inbox@v0", forum: "forum@v1", "test-control": "test-control@v0" } as const;
export type Api = keyof typeof API_NAMES;

export interface LintResult {
  exitCode: number;
  output: string;
}

/** A throwaway copy of `specs/redocly.yaml` and one API's folder; `edit` rewrites one of its files. */
export async function copyOfSpec(api: Api) {
  const root = await mkdtemp(join(tmpdir(), `pigeonhole-${api}-spec-`));
  await cp(join(specsDir, "redocly.yaml"), join(root, "redocly.yaml"));
  for (const part of ["openapi.yaml", "paths", "components", "webhooks"]) {
    await cp(join(specsDir, api, part), join(root, api, part), { recursive: true }).catch((error: unknown) => {
      // Only the inbox API has a webhooks folder.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        throw error;
      }
    });
  }
  return {
    async edit(file: string, change: (text: string) => string): Promise<void> {
      const path = join(root, api, file);
      const before = await readFile(path, "utf8");
      const after = change(before);
      if (after === before) {
        throw new Error(`the edit changed nothing in ${file}`);
      }
      await writeFile(path, after);
    },
    /** Lints the source, then (like `pnpm bundle`) bundles it and lints the bundle, where named schemas exist. */
    async lint(): Promise<LintResult> {
      const config = join(root, "redocly.yaml");
      // Where the `bundle` script writes it, so that an API whose bundle `redocly.yaml` registers gets its rules.
      const bundle = join(root, api, "dist", "openapi.json");
      const source = await redoclyRun(root, ["lint", "--config", config, API_NAMES[api]]);
      if (source.exitCode !== 0) {
        return source;
      }
      const bundled = await redoclyRun(root, ["bundle", "--config", config, API_NAMES[api], "-o", bundle]);
      if (bundled.exitCode !== 0) {
        return bundled;
      }
      // As the inbox's `bundle` script: its bundle inlines the references of `x-event-stream`, so the schemas only
      // that extension uses look unused there (the source lint above checks them).
      const skip = api === "inbox" ? ["--skip-rule=no-unused-components"] : [];
      const linted = await redoclyRun(root, ["lint", "--config", config, ...skip, bundle]);
      return { exitCode: linted.exitCode, output: `${source.output}\n${linted.output}` };
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

function redoclyRun(cwd: string, args: string[]): Promise<LintResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [redocly, ...args],
      { cwd, env: { ...process.env, NO_COLOR: "1", REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } },
      (error, stdout, stderr) => {
        const exitCode = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        resolve({ exitCode, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

/** Makes copies of one API's spec for the tests of a file, and removes each copy after its test. */
export function specCopies(api: Api): () => ReturnType<typeof copyOfSpec> {
  const made: { remove(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((copy) => copy.remove()));
  });
  return async () => {
    const copy = await copyOfSpec(api);
    made.push(copy);
    return copy;
  };
}
