import type { LogFields, ServerLogger } from "../../src/logger.ts";

/** A line the server logged, as a test reads it: its level and message beside its fields. */
export type LoggedLine = LogFields & { level: "info" | "warn" | "error"; msg: string };

/** A logger that keeps every line it is given, for tests that check what the server logged. */
export function recordingLogger(): { logger: ServerLogger; lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const record = (level: LoggedLine["level"]) => (msg: string, fields?: LogFields) =>
    lines.push({ ...fields, level, msg });
  return { logger: { info: record("info"), warn: record("warn"), error: record("error") }, lines };
}
