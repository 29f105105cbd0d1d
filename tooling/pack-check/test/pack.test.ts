// Packs every published package of the workspace as npm would ship it, lints the tarballs with publint and
// arethetypeswrong, installs them into a fresh project outside the workspace, and there typechecks (tsc, nodenext)
// and runs programs that use each package: the clients against the installed server, started through its bin.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshEnv } from "./fresh-env.ts";
import { type InstalledServer, startInstalledServer } from "./installed-server.ts";
import { packPackages, type Tarballs } from "./pack-tarballs.ts";
import { foreignImports, harnessFiles, packedFiles } from "./packed-files.ts";
import { relativeLinks } from "./readme-links.ts";
import { runCommand, runToExit } from "./run-command.ts";
import { checkedPackageNames, type WorkspacePackage, workspacePackages } from "./workspace.ts";

const require = createRequire(import.meta.url);
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const consumerDir = fileURLToPath(new URL("consumer/", import.meta.url));

/** Every package this one devDepends on with `workspace:`; the first test proves that is every published one. */
const CHECKED = await checkedPackageNames(new URL("../package.json", import.meta.url));
/** The packages with code to load at runtime (the `-types` packages hold only declarations). */
const CLIENT_RUNTIMES = [
  "@pigeonhole/client-core",
  "@pigeonhole/inbox",
  "@pigeonhole/forum",
  "@pigeonhole/test-control",
];

/**
 * Resolutions of CommonJS-only consumers. Every package is ESM-only: Node >= 20.19 (>= 24 for the server, a
 * Node program and library with the same export shape) loads them with `require()` too, which the last test proves.
 */
const CJS_ONLY = new Set(["node10", "node16-cjs"]);
/** What the harness check reads of a packed package.json. */
interface PackedManifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

interface AttwProblem {
  kind: string;
  entrypoint: string;
  resolutionKind: string;
}

/** A Node 20 binary on this machine (the system's, outside pnpm's PATH), to prove the clients' engines floor. */
const OLDEST_NODE = ["/usr/bin/node", "/usr/local/bin/node"].find((candidate) => {
  try {
    return existsSync(candidate) && execFileSync(candidate, ["--version"], { encoding: "utf8" }).startsWith("v20.");
  } catch {
    return false;
  }
});

/**
 * The environment of a command in the fresh project: a user's (see {@link freshEnv}), with `node` first on PATH
 * (what the server's bin and any child process run) and `extra` variables.
 */
const projectEnv = (node: string, extra: Record<string, string> = {}) =>
  freshEnv({ ...extra, PATH: `${dirname(node)}${delimiter}${freshEnv().PATH}` });

/** The development keys the installed server registers from the environment, and the clients read from it. */
const DEV_KEYS = { PIGEONHOLE_INBOX_API_KEY: "pack-check-inbox-key", PIGEONHOLE_FORUM_API_KEY: "pack-check-forum-key" };

let workspace: WorkspacePackage[];
let workDir: string;
let tarballs: Tarballs;

beforeAll(async () => {
  workspace = await workspacePackages(packageDir);
  workDir = await mkdtemp(join(tmpdir(), "pigeonhole-pack-"));
  tarballs = await packPackages(CHECKED, join(workDir, "tarballs"), workspace);
});

afterAll(async () => {
  if (workDir) {
    await rm(workDir, { recursive: true, force: true });
  }
});

function tarballOf(name: string): string {
  const tarball = tarballs.get(name);
  if (!tarball) {
    throw new Error(`No tarball of ${name}.`);
  }
  return tarball;
}

describe("published tarballs", () => {
  it("cover every package of the workspace that is not private", () => {
    const published = workspace.filter((project) => !project.private).map((project) => project.name);
    expect(CHECKED).toEqual(published.sort());
  });

  it.each(CHECKED)("%s passes publint with no message at all", async (name) => {
    const file = await readFile(tarballOf(name));
    const tarball = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
    const { messages, pkg } = await publint({ pack: { tarball }, level: "suggestion", strict: true });
    expect(messages.map((message) => formatMessage(message, pkg))).toEqual([]);
  });

  it.each(CHECKED)("%s ships no harness file and imports only what it depends on", async (name) => {
    const files = await packedFiles(tarballOf(name));
    const manifestFile = files.find((file) => file.path === "package.json");
    if (!manifestFile) {
      throw new Error(`The tarball of ${name} holds no package.json.`);
    }
    // The manifest as packed, so the names are those a user installs.
    const manifest = JSON.parse(new TextDecoder().decode(manifestFile.data)) as PackedManifest;
    const dependencies = [manifest.dependencies, manifest.peerDependencies, manifest.optionalDependencies].flatMap(
      (list) => Object.keys(list ?? {}),
    );
    expect({
      harnessFiles: harnessFiles(files),
      foreignImports: foreignImports(files, manifest.name, dependencies),
    }).toEqual({ harnessFiles: [], foreignImports: [] });
  });

  it.each(CHECKED)("%s ships a README whose links work on npm: none is relative to the repository", async (name) => {
    const readme = (await packedFiles(tarballOf(name))).find((file) => file.path === "README.md");
    expect(readme, `${name} ships no README.md`).toBeDefined();
    expect(relativeLinks(new TextDecoder().decode(readme?.data))).toEqual([]);
  });

  it("all pass arethetypeswrong for ESM importers and bundlers", async () => {
    const cli = join(dirname(require.resolve("@arethetypeswrong/cli/package.json")), "dist/index.js");
    const reports = await Promise.all(
      CHECKED.map(async (name) => {
        // Exits non-zero on a problem under the ESM-only profile; the JSON lists every problem for the message.
        const output = await runCommand(
          process.execPath,
          [cli, tarballOf(name), "--profile", "esm-only", "--format", "json"],
          { cwd: workDir },
        );
        const { analysis } = JSON.parse(output) as { analysis: { packageName: string; problems: AttwProblem[] } };
        return {
          name: analysis.packageName,
          problems: analysis.problems.filter((problem) => !CJS_ONLY.has(problem.resolutionKind)),
        };
      }),
    );
    expect(reports).toEqual(CHECKED.map((name) => ({ name, problems: [] })));
  });
});

describe("installed from the tarballs into a fresh project", () => {
  let projectDir: string;
  let server: InstalledServer | undefined;
  let compiled: Promise<string> | undefined;

  /** Typechecks the consumer programs and emits them as JavaScript (for the Node without type stripping), once. */
  const compile = () => {
    compiled ??= runCommand(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "."], {
      cwd: projectDir,
      env: projectEnv(process.execPath),
    });
    return compiled;
  };

  /** Runs the client program with the installed server's addresses and keys in the PIGEONHOLE_* variables. */
  const runClients = async (node: string, program: string, label: string) => {
    if (!server) {
      throw new Error("The installed server is not running.");
    }
    const env = {
      PIGEONHOLE_INBOX_BASE_URL: server.inbox.url,
      PIGEONHOLE_INBOX_API_KEY: server.inbox.apiKey,
      PIGEONHOLE_FORUM_BASE_URL: server.forum.url,
      PIGEONHOLE_FORUM_API_KEY: server.forum.apiKey,
      // The server runs in memory, so its test control is on, with the default key the client sends too.
      PIGEONHOLE_TEST_CONTROL_URL: server.inbox.url,
      PACK_CHECK_LABEL: label,
    };
    return JSON.parse(await runCommand(node, [program], { cwd: projectDir, env: projectEnv(node, env) }));
  };

  /** What the client program prints, run as `label` on `node`. */
  const expectedClientRun = (label: string, node: RegExp) => ({
    node: expect.stringMatching(node),
    inbox: {
      sender: `${label}-sender@pigeonhole.test`,
      received: [`Packed ${label}`],
      read: { from: `${label}-sender@pigeonhole.test`, text: "Installed from tarballs." },
      paginatedIncludesBoth: true,
      notFound: { isNotFoundError: true, isPigeonholeError: true, status: 404, code: "NOT_FOUND" },
    },
    webhook: { eventType: "message.received", messageId: true, tamperedRejected: "invalid_signature" },
    forum: {
      title: `Packed ${label}`,
      newestFirst: true,
      vote: { action: "upvoted", upvotes: 1 },
      notFound: "NOT_FOUND",
      transportStatus: 200,
    },
    testControl: { waitedForSent: true, timedOut: "WAIT_TIMED_OUT" },
  });

  beforeAll(async () => {
    projectDir = join(workDir, "project");
    await mkdir(projectDir);
    const file = (name: string) => `file:${tarballOf(name)}`;
    const manifest = {
      name: "pigeonhole-pack-check",
      private: true,
      type: "module",
      dependencies: Object.fromEntries(CHECKED.map((name) => [name, file(name)])),
      devDependencies: { "@types/node": (require("@types/node/package.json") as { version: string }).version },
      pnpm: {
        // The tarballs depend on each other by version, which no registry has yet: point those at the tarballs too.
        overrides: Object.fromEntries(CHECKED.map((name) => [name, file(name)])),
      },
    };
    await writeFile(join(projectDir, "package.json"), JSON.stringify(manifest, null, 2));
    for (const name of await readdir(consumerDir)) {
      await copyFile(join(consumerDir, name), join(projectDir, name));
    }
    // From the registry, as a user installs: the workspace's store only saves downloading what it already holds,
    // and metadata a cache lacks is fetched, so the check never depends on what a cache happens to hold.
    const storeDir = (await runCommand("pnpm", ["store", "path"], { cwd: packageDir })).trim();
    await runCommand(
      "pnpm",
      [
        "install",
        "--prefer-offline",
        "--ignore-workspace",
        "--store-dir",
        storeDir,
        "--config.confirmModulesPurge=false",
        "--reporter=append-only",
      ],
      { cwd: projectDir, env: freshEnv(), timeoutMs: 300_000 },
    );
    server = await startInstalledServer(
      projectDir,
      ["--memory", "--inbox-port", "0", "--forum-port", "0", "--allow-private-webhooks", "--quiet"],
      { env: projectEnv(process.execPath, DEV_KEYS) },
    );
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("runs its commands with a user's environment: nothing from the workspace's package manager", async () => {
    const seen = JSON.parse(
      await runCommand(process.execPath, ["-e", "console.log(JSON.stringify(process.env))"], {
        cwd: projectDir,
        env: projectEnv(process.execPath),
      }),
    ) as Record<string, string>;
    const leaked = Object.keys(seen).filter((name) => /^(npm_|pnpm_|INIT_CWD$|NODE_PATH$|NODE_OPTIONS$)/i.test(name));
    expect(leaked).toEqual([]);
    const path = (seen.PATH ?? "").split(delimiter);
    expect(path.filter((entry) => entry.endsWith(join("node_modules", ".bin")) || !entry.startsWith("/"))).toEqual([]);
    expect(path[0]).toBe(dirname(process.execPath));
  });

  it("starts the server through its bin, with the development keys from the environment", () => {
    expect(server).toMatchObject({
      inbox: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), apiKey: DEV_KEYS.PIGEONHOLE_INBOX_API_KEY },
      forum: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), apiKey: DEV_KEYS.PIGEONHOLE_FORUM_API_KEY },
    });
  });

  it("ships a systemd unit that systemd-analyze verifies with the installed command, and a sample environment", async () => {
    const deployDir = join(projectDir, "node_modules", "@pigeonhole", "server", "deploy");
    // The deployment guide installs into /opt/pigeonhole; this project stands for it.
    const unit = (await readFile(join(deployDir, "pigeonhole@.service"), "utf8")).replaceAll(
      "/opt/pigeonhole",
      projectDir,
    );
    const unitDir = await mkdtemp(join(workDir, "systemd-"));
    await writeFile(join(unitDir, "pigeonhole@1.service"), unit);
    // An unknown key or section is only a warning (exit 0): anything on stderr fails the check.
    const verified = await runToExit("systemd-analyze", ["verify", join(unitDir, "pigeonhole@1.service")], {
      cwd: unitDir,
      env: freshEnv(),
    });
    expect({ code: verified.code, stderr: verified.stderr }).toEqual({ code: 0, stderr: "" });

    // Every variable the sample sets or suggests is one the installed server reads.
    const help = await runCommand(join(projectDir, "node_modules", ".bin", "pigeonhole-server"), ["--help"], {
      cwd: projectDir,
      env: projectEnv(process.execPath),
    });
    const sample = await readFile(join(deployDir, "pigeonhole.env"), "utf8");
    const variables = [...sample.matchAll(/^#? ?(PIGEONHOLE_[A-Z_]+)=/gm)].map((match) => match[1] ?? "");
    expect(variables).toContain("PIGEONHOLE_DATABASE_URL");
    expect(variables.filter((name) => !new RegExp(`\\b${name}\\b`).test(help))).toEqual([]);
  });

  it("typechecks the consumer programs with tsc under moduleResolution nodenext", async () => {
    await expect(compile()).resolves.toBe("");
  });

  it("runs the client program on this Node against the installed server", async () => {
    await expect(runClients(process.execPath, "clients.ts", "current")).resolves.toEqual(
      expectedClientRun("current", new RegExp(`^${process.version.replaceAll(".", "\\.")}$`)),
    );
  });

  it.runIf(OLDEST_NODE)("runs the compiled client program on Node 20, the clients' oldest supported Node", async () => {
    await compile();
    await expect(runClients(OLDEST_NODE ?? "", "dist/clients.js", "oldest")).resolves.toEqual(
      expectedClientRun("oldest", /^v20\./),
    );
  });

  it("starts the server as a library, in process", async () => {
    const output = await runCommand(process.execPath, ["server-api.ts"], {
      cwd: projectDir,
      env: projectEnv(process.execPath),
    });
    expect(JSON.parse(output)).toEqual({
      health: [{ status: "ok" }, { status: "ok" }],
      devKey: true,
      author: "packed-agent",
      refused: "inboxPort must be a port number from 0 to 65535, not 70000.",
    });
  });

  it.runIf(OLDEST_NODE)("refuses Node 20 from the bin and from an import, naming the Node it needs", async () => {
    const node = OLDEST_NODE ?? "";
    const options = { cwd: projectDir, env: projectEnv(node), timeoutMs: 20_000 };
    const { engines } = JSON.parse(
      await readFile(join(projectDir, "node_modules", "@pigeonhole", "server", "package.json"), "utf8"),
    ) as { engines: { node: string } };
    const bin = await runToExit(
      join(projectDir, "node_modules", ".bin", "pigeonhole-server"),
      ["--memory", "--inbox-port", "0", "--forum-port", "0"],
      options,
    );
    const library = await runToExit(
      node,
      [
        "--input-type=module",
        "-e",
        'import { startServer } from "@pigeonhole/server"; await startServer({ database: ":memory:", inboxPort: 0, forumPort: 0 });',
      ],
      options,
    );
    for (const exit of [bin, library]) {
      // Not a crash (a segmentation fault is signal SIGSEGV, exit status 139 in a shell): a refusal that says why.
      expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 1, signal: null });
      expect(exit.stderr).toContain(`@pigeonhole/server needs Node.js ${engines.node}, but this is Node.js 20.`);
    }
  });

  it("can be required from CommonJS", async () => {
    const script = (names: string[]) =>
      `console.log(JSON.stringify(${JSON.stringify(names)}.map((name) => Object.keys(require(name)).length > 0)))`;
    const runtimes = [...CLIENT_RUNTIMES, "@pigeonhole/server"];
    const current = await runCommand(process.execPath, ["-e", script(runtimes)], {
      cwd: projectDir,
      env: projectEnv(process.execPath),
    });
    expect(JSON.parse(current)).toEqual(runtimes.map(() => true));
    if (OLDEST_NODE) {
      const oldest = await runCommand(OLDEST_NODE, ["-e", script(CLIENT_RUNTIMES)], {
        cwd: projectDir,
        env: projectEnv(OLDEST_NODE),
      });
      expect(JSON.parse(oldest)).toEqual(CLIENT_RUNTIMES.map(() => true));
    }
  });
});
