/** Fields of one structured log line. Values must be JSON-serialisable. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** Where the server writes its log lines. Pass your own to route them elsewhere, or `false` for silence. */
export interface ServerLogger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

type Level = "info" | "warn" | "error";

let pendingLines = "";
let flushOnExit = false;

function flushPendingLines(): void {
  if (pendingLines !== "") {
    const text = pendingLines;
    pendingLines = "";
    process.stderr.write(text);
  }
}

/**
 * Writes lines to stderr once per turn of the event loop rather than once per line: on Linux a write to a pipe or
 * a file is synchronous, and a line per request would hold up every request. Lines still pending when the process
 * exits (also on `process.exit()` or an uncaught exception) are written then.
 */
export function writeToStderrBatched(line: string): void {
  if (pendingLines === "") {
    setImmediate(flushPendingLines);
    if (!flushOnExit) {
      flushOnExit = true;
      process.on("exit", flushPendingLines);
    }
  }
  pendingLines += line;
}

/** One JSON object per line on stderr, so stdout stays free for what the CLI prints (URLs and keys). */
export function createJsonLogger(write: (line: string) => void = writeToStderrBatched): ServerLogger {
  const log = (level: Level, message: string, fields?: LogFields) => {
    write(`${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields })}\n`);
  };
  return {
    info: (message, fields) => log("info", message, fields),
    warn: (message, fields) => log("warn", message, fields),
    error: (message, fields) => log("error", message, fields),
  };
}

export const silentLogger: ServerLogger = {
  info: () => {},
  warn: () => {},
  error: () => {},
};

/** Only warnings and errors: what an operator must still see when request lines are not wanted (`--quiet`). */
export const warningsAndErrors = (logger: ServerLogger): ServerLogger => ({ ...logger, info: () => {} });
