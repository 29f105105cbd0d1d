// First: refuses an unsupported Node before anything below needs what only a supported Node has (node:sqlite).
import "./runtime-check.ts";

export type { LogFields, ServerLogger } from "./logger.ts";
export type { ServerLimits, ServerOptions } from "./options.ts";
export {
  DEFAULT_FORUM_DEV_KEY,
  DEFAULT_INBOX_DEV_KEY,
  DEFAULT_LIMITS,
  DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
  InvalidOptionError,
} from "./options.ts";
export { UnsupportedNodeError } from "./runtime-check.ts";
export type { Server, ServiceEndpoint, ServiceName } from "./server.ts";
export { startServer } from "./server.ts";
// What startServer rejects with when its PostgreSQL database refused it, or stayed unreachable too long.
export { DatabaseRefusedError, DatabaseUnreachableError } from "./storage/database-wait.ts";
