import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Server, startServer } from "@pigeonhole/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_ROOT } from "./built-site.ts";

const run = promisify(execFile);

const TSC = fileURLToPath(import.meta.resolve("typescript/bin/tsc"));
/** A package as the project's `npm install` would place it: the workspace's copy, with its own dependencies. */
const packageDir = (name: string) => dirname(fileURLToPath(import.meta.resolve(`${name}/package.json`)));
const INBOX_PACKAGE = packageDir("@pigeonhole/inbox");

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

/**
 * The testing guide's files, copied as they are into a project set up as the quickstart says (its `tsconfig.json`)
 * with what the guide installs beside the client: what the docs tell a reader to copy must typecheck as copied.
 */
describe("the testing guide's files in a project set up as the quickstart says", () => {
  let project: string;

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), "pigeonhole-testing-guide-"));
    await writeFile(join(project, "package.json"), `${JSON.stringify({ name: "app", type: "module" })}\n`);
    await copyFile(join(SITE_ROOT, "examples/guides/quickstart.tsconfig.json"), join(project, "tsconfig.json"));
    const guide = join(SITE_ROOT, "examples/guides/testing");
    for (const file of await readdir(guide)) {
      await copyFile(join(guide, file), join(project, file));
    }
    // The quickstart's `npm install @pigeonhole/inbox`, and the guide's `npm install --save-dev ...`.
    for (const name of ["@pigeonhole/inbox", ...(await testingGuideInstalls())]) {
      await mkdir(dirname(join(project, "node_modules", name)), { recursive: true });
      await symlink(packageDir(name), join(project, "node_modules", name), "dir");
    }
  });

  afterAll(async () => {
    if (project) {
      await rm(project, { recursive: true, force: true });
    }
  });

  it("installs what the guide's install command names", async () => {
    expect(await testingGuideInstalls()).toEqual([
      "@pigeonhole/server",
      "@pigeonhole/test-control",
      "vitest",
      "@types/node",
    ]);
  });

  it("typechecks them with the quickstart's tsconfig.json", async () => {
    const result = await run(process.execPath, [TSC, "-p", project], { cwd: project }).then(
      ({ stdout }) => stdout,
      (error: ProcessFailure) => error.stdout ?? String(error),
    );
    expect(result).toBe("");
  });
});

/** The packages of the testing guide's `npm install --save-dev` line, in its order. */
async function testingGuideInstalls(): Promise<string[]> {
  const page = await readFile(join(SITE_ROOT, "src/content/docs/guides/testing-your-integration.mdx"), "utf8");
  const line = /^npm install --save-dev (.+)$/m.exec(page)?.[1];
  if (line === undefined) {
    throw new Error("The testing guide has no `npm install --save-dev` line");
  }
  return line.trim().split(/\s+/);
}
