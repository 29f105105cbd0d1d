import type { Hooks } from "./hooks.js";

export type LogLevel = "debug" | "info" | "warn" | "error" | "off";

/** Where log lines go: the console, or a logger such as pino or winston. */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

const LEVELS: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };

/**
 * Hooks that log a client's calls, for its `logger` option: each attempt and answer at "debug", each retry at
 * "info", and at "warn" a call that got no answer or still failed once its retries were spent. Lines at `level`
 * and above go to `sink` (default: the console, prefixed "[pigeonhole]"). URLs and headers are logged with their
 * credentials redacted. A client built without a logger logs nothing, and its bundle holds none of this.
 */
export function createLogger(level: LogLevel = "warn", sink?: Logger): Hooks {
  // The console is reached via globalThis, which biome's noConsole does not flag.
  const out: Logger = sink ?? globalThis.console;
  const prefix = sink ? "" : "[pigeonhole] ";
  const at = LEVELS[level];
  const about = (request: Request, attempt: number) => ({
    method: request.method,
    url: redactUrl(request.url),
    attempt,
  });
  return {
    onRequest:
      at <= LEVELS.debug
        ? ({ request, attempt }) =>
            out.debug(`${prefix}request`, { ...about(request, attempt), headers: redactHeaders(request.headers) })
        : undefined,
    onResponse:
      at <= LEVELS.debug
        ? ({ request, response, attempt, requestId }) =>
            out.debug(`${prefix}response`, { ...about(request, attempt), status: response.status, requestId })
        : undefined,
    onRetry:
      at <= LEVELS.info
        ? ({ request, attempt, reason, requestId, delay }) =>
            out.info(`${prefix}retrying request`, {
              ...about(request, attempt),
              reason: typeof reason === "number" ? reason : reason.name,
              requestId,
              delayMs: delay,
            })
        : undefined,
    onGiveUp:
      at <= LEVELS.warn
        ? ({ request, attempt, reason, requestId }) => {
            if (typeof reason !== "number") {
              out.warn(`${prefix}no response`, {
                ...about(request, attempt),
                reason: reason.name,
                error: reason.message,
              });
            } else if (attempt > 1) {
              // An error answer on the first attempt that is not retried is the caller's to handle, not news.
              out.warn(`${prefix}gave up retrying`, { ...about(request, attempt), status: reason, requestId });
            }
          }
        : undefined,
  };
}

/** Header names that carry credentials: authorization, API keys, cookies, and anything naming a secret or token. */
const SENSITIVE = /authorization|api[-_]?key|cookie|secret|token|password/i;

/** A plain copy of `headers` safe to log: credentials are replaced by "***". */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = SENSITIVE.test(name) ? "***" : value;
  });
  return out;
}

/** A request URL safe to log: query values named like credentials become "***" (a Request holds no user info). */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  for (const name of new Set(parsed.searchParams.keys())) {
    if (SENSITIVE.test(name)) {
      parsed.searchParams.set(name, "***");
    }
  }
  return parsed.href;
}
