/** The reason an error body gives, as read by a service's definition; every part is optional. */
export interface ErrorSummary {
  code?: string | null | undefined;
  message?: string | null | undefined;
  field?: string | null | undefined;
  hint?: string | null | undefined;
}

const MAX_DETAIL_LENGTH = 200;

/** One line: `404 NOT_FOUND: No inbox support@pigeonhole.test (request req_123)`. */
export function formatMessage(status: number, summary: ErrorSummary, requestId: string | null): string {
  const code = oneLine(summary.code);
  const message = oneLine(summary.message);
  const field = oneLine(summary.field);
  const hint = oneLine(summary.hint);
  const reason =
    code !== undefined && message !== undefined ? `${code}: ${message}` : (code ?? message ?? "status code");
  const notes = [field && `(field: ${field})`, hint && `(hint: ${hint})`, requestId && `(request ${requestId})`];
  return [`${status} ${reason}`, ...notes].filter(Boolean).join(" ");
}

/**
 * What can be said of a body that is not the service's envelope (a proxy or gateway answered, or the base URL
 * points elsewhere): a short text, or the `message` of a JSON object. It gives no code: codes are the envelope's.
 */
export function summarizeForeignBody(body: unknown): ErrorSummary {
  const message = typeof body === "string" ? body : (body as { message?: unknown } | null)?.message;
  return typeof message === "string" ? { message } : {};
}

/** A non-empty string squeezed onto one line and cut to a readable length; anything else is undefined. */
export function oneLine(value: unknown): string | undefined {
  if (typeof value !== "string") {
    return undefined;
  }
  const line = value.replace(/\s+/g, " ").trim();
  if (line === "") {
    return undefined;
  }
  return line.length > MAX_DETAIL_LENGTH ? `${line.slice(0, MAX_DETAIL_LENGTH - 1)}…` : line;
}
