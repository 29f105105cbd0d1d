import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { type Server, startServer } from "@pigeonhole/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_ROOT } from "./built-site.ts";

// The MCP guide's Inspector commands, run as written with `sh` in a project where `npx` finds both packages
// installed: the MCP server package these docs are built with, and the Inspector. npm runs offline here, so a
// command that would fetch from the registry fails instead of running someone else's copy.

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** The address and key the guide names, which the test's server stands in for. */
const GUIDE_INBOX_URL = "http://127.0.0.1:4010";

/**
 * Installs `name` into `project` as npm would: the package in `node_modules`, its bins executable and linked in
 * `node_modules/.bin`.
 */
async function install(project: string, name: string): Promise<void> {
  const manifestPath = require.resolve(`${name}/package.json`);
  const { bin = {} } = JSON.parse(await readFile(manifestPath, "utf8")) as { bin?: Record<string, string> };
  const installed = join(project, "node_modules", name);
  await mkdir(dirname(installed), { recursive: true });
  await symlink(dirname(manifestPath), installed, "dir");
  await mkdir(join(project, "node_modules/.bin"), { recursive: true });
  for (const [command, script] of Object.entries(bin)) {
    // npm makes a bin's script executable when it installs it; a workspace build leaves it as tsc wrote it.
    await chmod(join(installed, script), 0o755);
    await symlink(join(installed, script), join(project, "node_modules/.bin", command));
  }
}

/** The JSON documents a run printed, one after another. */
function jsonDocuments(output: string): unknown[] {
  return output
    .split(/\n(?=\{)/)
    .map((text) => text.trim())
    .filter((text) => text !== "")
    .map((text) => JSON.parse(text) as unknown);
}

describe("the MCP guide's Inspector commands", () => {
  let project: string;
  let server: Server;

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), "pigeonhole-docs-mcp-"));
    await writeFile(join(project, "package.json"), `${JSON.stringify({ name: "try-mcp", private: true })}\n`);
    await install(project, "@pigeonhole/mcp");
    await install(project, "@modelcontextprotocol/inspector");
    server = await startServer({
      inboxPort: 0,
      forumPort: 0,
      smtpPort: 0,
      database: ":memory:",
      logger: false,
      devKeys: {},
    });
  });

  afterAll(async () => {
    await server?.close();
    await rm(project, { recursive: true, force: true });
  });

  it("list the tools and create an inbox through the local server", { timeout: 120_000 }, async () => {
    const script = await readFile(join(SITE_ROOT, "examples/guides/mcp-inspector.sh"), "utf8");
    expect(script).toContain(GUIDE_INBOX_URL);
    expect(server.inbox.apiKey).toBe("pigeonhole-inbox-dev");
    const { stdout } = await run("sh", ["-c", script.replaceAll(GUIDE_INBOX_URL, server.inbox.url)], {
      cwd: project,
      env: {
        // Node 24 first, for the bins' `#!/usr/bin/env node`; the machine's npm for `npx`.
        PATH: [dirname(process.execPath), process.env.PATH ?? ""].join(delimiter),
        HOME: project,
        npm_config_offline: "true",
        npm_config_update_notifier: "false",
      },
      timeout: 100_000,
    });

    const [listed, called] = jsonDocuments(stdout) as [
      { tools: { name: string }[] },
      { structuredContent: { inbox_id: string } },
    ];
    const names = listed.tools.map((tool) => tool.name);
    expect(names).toContain("inbox_create_inbox");
    // Only the inbox's key was given, so only inbox tools are served.
    expect(names.every((name) => name.startsWith("inbox_"))).toBe(true);
    expect(called.structuredContent.inbox_id).toBe("scout@pigeonhole.test");
    const inbox = await fetch(`${server.inbox.url}/v0/inboxes/scout@pigeonhole.test`, {
      headers: { Authorization: `Bearer ${server.inbox.apiKey}` },
    });
    expect(inbox.status).toBe(200);
  });
});
