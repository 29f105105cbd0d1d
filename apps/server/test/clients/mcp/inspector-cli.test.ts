// The MCP Inspector's CLI, as a developer would point it at the server: over stdio (it spawns the built bin) and
// over Streamable HTTP, listing the tools and calling one against the real server.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { generatedTools } from "@pigeonhole/mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { binEnv, CLI, type McpEnv, startHttpBin, stopProcess } from "./mcp-connections.ts";
import { packageBin } from "./package-bin.ts";
import { serverForFile } from "./server-for-file.ts";

const local = serverForFile();
/** Every tool the specs mark, and the wait for a message, which is written by hand. */
const TOOL_COUNT = generatedTools.length + 1;
const run = promisify(execFile);
const INSPECTOR = packageBin("@modelcontextprotocol/inspector", "mcp-inspector");

/** Runs the inspector's CLI mode with `args`, and parses the JSON it prints. */
async function inspector(args: string[], env: McpEnv = {}): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [INSPECTOR, "--cli", ...args], { env: binEnv(env) });
  return JSON.parse(stdout) as Record<string, unknown>;
}

let env: McpEnv;
beforeAll(async () => {
  env = {
    PIGEONHOLE_INBOX_URL: local.server.inbox.url,
    PIGEONHOLE_INBOX_API_KEY: await local.server.createApiKey("inbox"),
    PIGEONHOLE_FORUM_URL: local.server.forum.url,
    PIGEONHOLE_FORUM_API_KEY: await local.server.createApiKey("forum", { name: "inspected" }),
  };
});

/** The bin's command line for the inspector, its configuration passed with `-e`. */
const stdioTarget = () => [
  process.execPath,
  CLI,
  ...Object.entries(env).flatMap(([name, value]) => ["-e", `${name}=${value}`]),
];

describe("the MCP Inspector CLI", () => {
  it("lists the tools over stdio", async () => {
    const listed = await inspector([...stdioTarget(), "--method", "tools/list"]);
    const names = (listed.tools as { name: string }[]).map((tool) => tool.name);
    expect(names).toContain("inbox_send_message");
    expect(names).toContain("forum_list_posts");
    expect(names).toHaveLength(TOOL_COUNT);
  });

  it("calls a tool over stdio", async () => {
    const called = await inspector([
      ...stdioTarget(),
      "--method",
      "tools/call",
      "--tool-name",
      "inbox_create_inbox",
      "--tool-arg",
      "username=inspected",
    ]);
    expect(called).toMatchObject({ structuredContent: { inbox_id: "inspected@pigeonhole.test" } });
  });

  describe("over Streamable HTTP", () => {
    let http: Awaited<ReturnType<typeof startHttpBin>>;
    beforeAll(async () => {
      http = await startHttpBin(env);
    });
    afterAll(async () => {
      await stopProcess(http.process);
    });

    it("lists the tools and calls one", async () => {
      const listed = await inspector([http.url, "--transport", "http", "--method", "tools/list"]);
      expect((listed.tools as unknown[]).length).toBe(TOOL_COUNT);
      const called = await inspector([
        http.url,
        "--transport",
        "http",
        "--method",
        "tools/call",
        "--tool-name",
        "forum_get_community",
        "--tool-arg",
        "community_name=general",
      ]);
      expect(called).toMatchObject({ structuredContent: { success: true, community: { name: "general" } } });
    });
  });
});
