/** What a system error carries beside its message (Node's `connect`, `getaddrinfo` and socket errors). */
interface SystemErrorFields {
  code?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
  errors?: unknown;
  cause?: unknown;
}

/** How deep the chain of causes is followed: `fetch failed` wraps the system error one or two levels down. */
const MAX_CAUSE_DEPTH = 5;

/**
 * One line for a request that got no answer, naming the system error and the request:
 * `Connection error: ECONNREFUSED 127.0.0.1:4010 (GET http://127.0.0.1:4010/v0/inboxes)`. The query string is left
 * out: it may carry a page token or a key.
 */
export function connectionFailureMessage(error: unknown, request: Request): string {
  const url = new URL(request.url);
  return `Connection error: ${systemReason(error)} (${request.method} ${url.origin}${url.pathname})`;
}

/**
 * The innermost system error's code and peer (`ECONNREFUSED 127.0.0.1:4010`, `ENOTFOUND api.example.invalid`), or the
 * innermost message when no cause has a code (a browser's `Failed to fetch`).
 */
function systemReason(error: unknown): string {
  let coded: string | undefined;
  let message: string | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && isObject(current); depth++) {
    const fields = current as SystemErrorFields;
    if (typeof fields.code === "string") {
      // An AggregateError (every address of a name refused) has the code; its first error has the peer.
      const first = Array.isArray(fields.errors) ? (fields.errors[0] as SystemErrorFields | undefined) : undefined;
      const peer = peerOf(fields) ?? (isObject(first) ? peerOf(first) : undefined);
      coded = peer === undefined ? fields.code : `${fields.code} ${peer}`;
    }
    message = messageOf(current) ?? message;
    current = fields.cause;
  }
  return coded ?? message ?? "no answer";
}

/** `127.0.0.1:4010`, or the host name a lookup failed for. */
function peerOf({ address, port, hostname }: SystemErrorFields): string | undefined {
  if (typeof address === "string") {
    return typeof port === "number" ? `${address}:${port}` : address;
  }
  return typeof hostname === "string" ? hostname : undefined;
}

function messageOf(value: unknown): string | undefined {
  const message = isObject(value) ? (value as { message?: unknown }).message : undefined;
  return typeof message === "string" && message !== "" ? message : undefined;
}

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null;
