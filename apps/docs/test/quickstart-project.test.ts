import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Server, startServer } from "@pigeonhole/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_ROOT } from "./built-site.ts";

const run = promisify(execFile);

const TSC = fileURLToPath(import.meta.resolve("typescript/bin/tsc"));
/** The client as the project's `npm install` would place it: the workspace package, with its own dependencies. */
const INBOX_PACKAGE = dirname(fileURLToPath(import.meta.resolve("@pigeonhole/inbox/package.json")));

/** What `run` rejects with: the process's output and exit code on top of the error. */
interface ProcessFailure {
  code?: number;
  stdout?: string;
}

/**
 * The project the quickstart sets up, made as it says: `"type": "module"` in `package.json`, its `tsconfig.json`, the
 * client installed, and its script.
 */
describe("a new project set up as the quickstart says", () => {
  let project: string;
  let server: Server;

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), "pigeonhole-quickstart-"));
    await writeFile(join(project, "package.json"), `${JSON.stringify({ name: "start", type: "module" })}\n`);
    await copyFile(join(SITE_ROOT, "examples/guides/quickstart.tsconfig.json"), join(project, "tsconfig.json"));
    await copyFile(join(SITE_ROOT, "examples/guides/quickstart.ts"), join(project, "quickstart.ts"));
    await mkdir(join(project, "node_modules/@pigeonhole"), { recursive: true });
    await symlink(INBOX_PACKAGE, join(project, "node_modules/@pigeonhole/inbox"), "dir");
    server = await startServer({ inboxPort: 0, forumPort: 0, database: ":memory:", logger: false });
  });

  afterAll(async () => {
    await server?.close();
    if (project) {
      await rm(project, { recursive: true, force: true });
    }
  });

  it("typechecks the quickstart script with the quickstart's tsconfig.json", async () => {
    await expect(run(process.execPath, [TSC, "-p", project], { cwd: project })).resolves.toMatchObject({ stdout: "" });
  });

  it("finds no types for the client with the `node10` resolution the quickstart warns about", async () => {
    const tsconfig = JSON.parse(await readFile(join(project, "tsconfig.json"), "utf8")) as {
      compilerOptions: Record<string, unknown>;
    };
    const legacy = join(project, "tsconfig.legacy.json");
    await writeFile(
      legacy,
      JSON.stringify({
        compilerOptions: { ...tsconfig.compilerOptions, module: "esnext", moduleResolution: "node10" },
      }),
    );
    const failure: ProcessFailure = await run(process.execPath, [TSC, "-p", legacy], { cwd: project }).then(
      () => ({}),
      (error: ProcessFailure) => error,
    );
    expect(failure.code).not.toBe(0);
    expect(failure.stdout).toContain("Cannot find module '@pigeonhole/inbox'");
  });

  it("runs the quickstart script with `node quickstart.ts` against the server", async () => {
    const { stdout } = await run(process.execPath, ["quickstart.ts"], {
      cwd: project,
      timeout: 20_000,
      env: {
        PATH: process.env.PATH,
        PIGEONHOLE_INBOX_API_KEY: server.inbox.apiKey,
        PIGEONHOLE_INBOX_BASE_URL: server.inbox.url,
      },
    });
    expect(stdout).toContain('has "Hello from the quickstart"');
  });
});
