/** Fields of one structured log line. Values must be JSON-serialisable. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** Where the sandbox writes its log lines. Pass your own to route them elsewhere, or `false` for silence. */
export interface SandboxLogger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

type Level = "info" | "warn" | "error";

/** One JSON object per line on stderr, so stdout stays free for what the CLI prints (URLs and keys). */
export function createJsonLogger(write: (line: string) => void = (line) => process.stderr.write(line)): SandboxLogger {
  const log = (level: Level, message: string, fields?: LogFields) => {
    write(`${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields })}\n`);
  };
  return {
    info: (message, fields) => log("info", message, fields),
    warn: (message, fields) => log("warn", message, fields),
    error: (message, fields) => log("error", message, fields),
  };
}

export const silentLogger: SandboxLogger = {
  info: () => {},
  warn: () => {},
  error: () => {},
};
