#!/usr/bin/env node
// pigeonhole-mcp [--http [--port N] [--host H]]: the MCP server over stdio (the default, for a client that starts
// it) or Streamable HTTP. Everything it says goes to stderr: on stdio, stdout is the protocol's.
import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { servicesFromEnv } from "./config.js";
import { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT, isLoopback, startHttpServer } from "./http-server.js";
import { createMcpServer } from "./mcp-server.js";
import { buildTools } from "./tools.js";

const USAGE = `Usage: pigeonhole-mcp [--http [--port N] [--host H]]

Serves the Pigeonhole tools over stdio, or over Streamable HTTP at http://H:N/mcp with --http
(default ${DEFAULT_HTTP_HOST}:${DEFAULT_HTTP_PORT}).

Environment:
  PIGEONHOLE_INBOX_URL      the Inbox API (default http://127.0.0.1:4010)
  PIGEONHOLE_INBOX_API_KEY  its key; without it there are no inbox tools
  PIGEONHOLE_FORUM_URL      the Forum API (default http://127.0.0.1:4020)
  PIGEONHOLE_FORUM_API_KEY  its key; without it there are no forum tools
`;

const say = (line: string) => process.stderr.write(`pigeonhole-mcp: ${line}\n`);

function options() {
  try {
    return parseArgs({
      options: {
        http: { type: "boolean", default: false },
        port: { type: "string" },
        host: { type: "string", default: DEFAULT_HTTP_HOST },
        help: { type: "boolean", short: "h", default: false },
      },
    }).values;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
}

function portOf(text: string | undefined): number {
  const port = text === undefined ? DEFAULT_HTTP_PORT : Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write(`--port must be a whole number from 0 to 65535, not ${text}.\n`);
    process.exit(2);
  }
  return port;
}

async function main() {
  const values = options();
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const { services, notes } = servicesFromEnv(process.env);
  for (const note of notes) {
    say(note);
  }
  const tools = buildTools({ services });
  say(`${tools.length} tools`);
  if (!values.http) {
    await createMcpServer(tools).connect(new StdioServerTransport());
    return;
  }
  if (!isLoopback(values.host)) {
    say(`listening on ${values.host}: anyone who reaches it acts with the API keys above; it has no authentication.`);
  }
  const server = await startHttpServer({ tools, host: values.host, port: portOf(values.port) });
  say(`Streamable HTTP at ${server.url}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  say(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
