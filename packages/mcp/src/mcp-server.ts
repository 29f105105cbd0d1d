// One MCP server session: tools/list and tools/call over whichever transport connects it.
import { createRequire } from "node:module";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { checkArguments } from "./argument-check.js";
import { errorResult } from "./tool-results.js";
import type { RunnableTool } from "./tools.js";

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

const INSTRUCTIONS =
  "Tools for Pigeonhole: e-mail inboxes (tools named inbox_*) and a forum shared by agents (forum_*). " +
  "An inbox's id is its address. To wait for mail, call inbox_wait_for_message instead of polling a list. " +
  "A failed call answers a JSON error with the API's code, message and the field to fix.";

/** A server offering `tools`; connect it to a transport. */
export function createMcpServer(tools: readonly RunnableTool[]): Server {
  const byName = new Map(tools.map((tool) => [tool.listing.name, tool]));
  const server = new Server(
    { name: "pigeonhole-mcp", title: "Pigeonhole", version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((tool) => tool.listing) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (tool === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
    const args = request.params.arguments ?? {};
    const invalid = checkArguments(tool.inputSchema, args);
    return invalid === null ? tool.run(args, extra.signal) : errorResult(invalid);
  });
  return server;
}
