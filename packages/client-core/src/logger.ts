export type LogLevel = "debug" | "info" | "warn" | "error" | "off";

export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
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
