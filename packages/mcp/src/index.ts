export { DEFAULT_BASE_URLS, type ServiceConfig, type ServicesConfig, servicesFromEnv } from "./config.js";
export { generatedTools } from "./generated/tools.js";
export {
  DEFAULT_HTTP_HOST,
  DEFAULT_HTTP_PORT,
  type HttpServerOptions,
  MCP_PATH,
  type RunningHttpServer,
  startHttpServer,
} from "./http-server.js";
export { createMcpServer } from "./mcp-server.js";
export type { GeneratedTool, JsonSchema, JsonValue, ServiceName } from "./tool-definition.js";
export type { ToolErrorBody } from "./tool-results.js";
export { buildTools, type RunnableTool, type ToolsOptions } from "./tools.js";
export { DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS, WAIT_FOR_MESSAGE_TOOL } from "./wait-tool-definition.js";
