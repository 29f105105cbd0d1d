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

/** An error as the fields of a log line: its message, and its stack too when it is not one the server expects. */
export function errorFields(error: unknown, { withStack }: { withStack: boolean }): LogFields {
  if (!(error instanceof Error)) {
    return { error: String(error) };
  }
  return { error: error.message, error_name: error.name, ...(withStack && error.stack ? { stack: error.stack } : {}) };
}

/**
 * Makes what Node itself would print on stderr a log line like the others, so that every line there is JSON: its
 * warnings (unless they are turned off, with `--no-warnings` or `NODE_NO_WARNINGS=1`), and an exception nothing
 * caught, after which the process still ends with status 1 as Node's own handling would.
 */
export function logProcessWarningsAndCrashes(logger: ServerLogger): void {
  // Node prints warnings through a listener of its own, added only when they are on.
  if (process.listenerCount("warning") > 0) {
    process.removeAllListeners("warning");
    process.on("warning", (warning) =>
      logger.warn("node warning", {
        warning: warning.message,
        warning_name: warning.name,
        code: (warning as { code?: string }).code,
      }),
    );
  }
  process.on("uncaughtException", (error, origin) => {
    logger.error("fatal error", { ...errorFields(error, { withStack: true }), origin });
    // The line is written on the way out (see writeToStderrBatched).
    process.exit(1);
  });
}
