// First: refuses an unsupported Node before any module below loads the native SQLite binding.
import "./runtime-check.ts";

export type { LogFields, SandboxLogger } from "./logger.ts";
export type { SandboxLimits, SandboxOptions } from "./options.ts";
export {
  DEFAULT_FORUM_DEV_KEY,
  DEFAULT_INBOX_DEV_KEY,
  DEFAULT_LIMITS,
  DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
  InvalidOptionError,
} from "./options.ts";
export { UnsupportedNodeError } from "./runtime-check.ts";
export type { Sandbox, SandboxService } from "./sandbox.ts";
export { startSandbox } from "./sandbox.ts";
