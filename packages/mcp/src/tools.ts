// The tools one configuration offers: the generated ones of each service with a key, and the wait for mail.
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { createForumClient } from "@pigeonhole/forum";
import { createInboxClient, type InboxClient } from "@pigeonhole/inbox";
import { toolErrorOf } from "./api-errors.js";
import type { ServiceConfig, ServicesConfig } from "./config.js";
import { generatedTools } from "./generated/tools.js";
import { callOperation, type LooseClient } from "./operation-call.js";
import type { GeneratedTool, JsonSchema, ServiceName } from "./tool-definition.js";
import { errorResult, successResult } from "./tool-results.js";
import { type WaitArguments, waitForMessage } from "./wait-for-message.js";
import { WAIT_FOR_MESSAGE_TOOL } from "./wait-tool-definition.js";

/** A tool as the server runs it: what tools/list shows, and what a call does with arguments already checked. */
export interface RunnableTool {
  listing: Tool;
  inputSchema: JsonSchema;
  run(args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
}

/** What the tools are built from: the services that have a key. */
export interface ToolsOptions {
  services: ServicesConfig;
}

function listingOf(tool: GeneratedTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool["inputSchema"],
    ...(tool.outputSchema === null ? {} : { outputSchema: tool.outputSchema as Tool["outputSchema"] }),
    annotations: { title: tool.title, readOnlyHint: tool.readOnly },
  };
}

/** Runs `call`, turning what a client throws into the tool error the model reads. */
async function guarded(config: ServiceConfig, service: ServiceName, call: () => Promise<CallToolResult>) {
  try {
    return await call();
  } catch (error) {
    return errorResult(toolErrorOf(service, config.baseUrl, error));
  }
}

function generatedTool(tool: GeneratedTool, client: LooseClient, config: ServiceConfig): RunnableTool {
  return {
    listing: listingOf(tool),
    inputSchema: tool.inputSchema,
    run: (args) =>
      guarded(config, tool.service, async () =>
        successResult(await callOperation(client, tool, args), `Done: ${tool.title.toLowerCase()}.`),
      ),
  };
}

function waitTool(client: InboxClient, config: ServiceConfig): RunnableTool {
  const { name, title, description, inputSchema } = WAIT_FOR_MESSAGE_TOOL;
  return {
    listing: {
      name,
      title,
      description,
      inputSchema: inputSchema as Tool["inputSchema"],
      annotations: { title, readOnlyHint: false },
    },
    inputSchema,
    run: (args, signal) =>
      guarded(config, "inbox", async () =>
        successResult(await waitForMessage(client, args as unknown as WaitArguments, signal), ""),
      ),
  };
}

/** Every tool of the configured services, in the table's order, the wait after the inbox's message list. */
export function buildTools({ services }: ToolsOptions): RunnableTool[] {
  const tools: RunnableTool[] = [];
  const inbox = services.inbox && createInboxClient({ baseUrl: services.inbox.baseUrl, apiKey: services.inbox.apiKey });
  const forum = services.forum && createForumClient({ baseUrl: services.forum.baseUrl, apiKey: services.forum.apiKey });
  for (const tool of generatedTools) {
    const config = services[tool.service];
    const client = tool.service === "inbox" ? inbox : forum;
    if (config === undefined || client === undefined) {
      continue;
    }
    tools.push(generatedTool(tool, client as unknown as LooseClient, config));
    if (tool.name === "inbox_list_messages" && inbox !== undefined && services.inbox !== undefined) {
      tools.push(waitTool(inbox, services.inbox));
    }
  }
  return tools;
}
