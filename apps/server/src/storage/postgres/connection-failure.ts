/**
 * What a failure to open a PostgreSQL database means for a server starting: `unreachable` may pass by itself (nothing
 * listens yet, the name does not resolve yet, the server is starting up or restarting), so it is worth waiting for;
 * `login refused` and `no such database` will not, and neither will anything else (`other`).
 */
export type ConnectionFailureKind = "unreachable" | "login refused" | "no such database" | "other";

/** Network errors of a database host that is not up or not reachable yet. */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs of a server that cannot take connections yet: `57P03` cannot_connect_now (starting up, shutting down,
 * in recovery), `57P01` admin_shutdown and `57P02` crash_shutdown (a restart under way), and class `08`, connection
 * exceptions.
 */
const NOT_YET_STATES = /^(?:57P0[123]|08[0-9A-Z]{3})$/;

/** `pg`'s own messages when the server closes a connection it was opening (a restart), or does not answer in time. */
const DROPPED_CONNECTION = /^(?:Connection terminated|timeout expired)/;

/** Class 28: invalid_authorization_specification (an unknown role) and invalid_password. */
const LOGIN_STATES = /^28[0-9A-Z]{3}$/;

/** invalid_catalog_name: the database named in the URL does not exist. */
const NO_SUCH_DATABASE = "3D000";

/** The error and what it wraps: `cause` chains (a failed migration wraps its error) and AggregateError's `errors`. */
function* errorsWithin(error: unknown, depth = 0): Generator<unknown> {
  if (depth > 8 || error === null || error === undefined) {
    return;
  }
  yield error;
  if (error instanceof AggregateError) {
    for (const each of error.errors) {
      yield* errorsWithin(each, depth + 1);
    }
  }
  if (error instanceof Error && error.cause !== undefined) {
    yield* errorsWithin(error.cause, depth + 1);
  }
}

function kindOfOne(error: unknown): ConnectionFailureKind | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (UNREACHABLE_CODES.has(code) || NOT_YET_STATES.test(code)) {
      return "unreachable";
    }
    if (LOGIN_STATES.test(code)) {
      return "login refused";
    }
    if (code === NO_SUCH_DATABASE) {
      return "no such database";
    }
  }
  if (error instanceof Error && DROPPED_CONNECTION.test(error.message)) {
    return "unreachable";
  }
  return undefined;
}

/** What a failure to open the database means (see {@link ConnectionFailureKind}): the first of its errors that says. */
export function connectionFailureKind(error: unknown): ConnectionFailureKind {
  for (const each of errorsWithin(error)) {
    const kind = kindOfOne(each);
    if (kind !== undefined) {
      return kind;
    }
  }
  return "other";
}

/** The innermost message of a failure, the one that names what went wrong (not the wrapper's). */
export function rootMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  for (const each of errorsWithin(error)) {
    if (each instanceof Error && each.message !== "") {
      message = each.message;
    }
  }
  return message;
}
