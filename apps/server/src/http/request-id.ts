import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import type { LogFields, ServerLogger } from "../logger.ts";
import { answerHeaders } from "./answer.ts";
import type { ServiceEnv } from "./service-env.ts";

/**
 * The incoming ids kept as they are: up to 128 letters, digits and `-_.:`, which holds what proxies and tracing tools
 * send as a request id (UUIDs, nginx's `$request_id`, hex and base32 ids). Anything else is replaced, so that nothing
 * a client sends reaches a log line or an answer's headers but an id of this form.
 */
const KEPT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const newRequestId = () => `req_${randomUUID().replaceAll("-", "").slice(0, 16)}`;

/**
 * Gives the request an id, sent back as `X-Request-Id` on every answer and written to the one log line the request
 * gets once it is answered (see `logAnswered`): a client quoting the id leads to that line. A valid `X-Request-Id` the
 * request came with (from a proxy in front, or the client's own tracing) is kept, so that its lines here and there
 * share one id; any other is replaced by a new one.
 */
export function assignRequestId<Caller>(c: Context<ServiceEnv<Caller>>): string {
  const given = c.req.header("x-request-id");
  const id = given !== undefined && KEPT_REQUEST_ID.test(given) ? given : newRequestId();
  c.set("requestId", id);
  answerHeaders(c)["x-request-id"] = id;
  return id;
}

/** What a service's request lines say besides the request itself. */
export interface RequestLog<Caller> {
  /** The service's name, in every line. */
  service: string;
  logger: ServerLogger;
  /** Who the caller is, once its key was accepted: a pod or an agent id, never the key or anything secret. */
  callerFields?: (caller: Caller) => LogFields;
}

/** Writes the log line of an answered request, which started at `startedMs` (`performance.now()`). */
export function logAnswered<Caller>(c: Context<ServiceEnv<Caller>>, log: RequestLog<Caller>, startedMs: number): void {
  if (c.get("upgraded")) {
    return;
  }
  // Set only for a request whose key was accepted.
  const caller = c.get("caller") as Caller | undefined;
  log.logger.info("request", {
    service: log.service,
    method: c.req.method,
    path: c.req.path,
    // A dropped request got no answer: its line says so rather than naming a status nobody received.
    ...(c.get("dropped") ? { dropped: true } : { status: c.res.status }),
    duration_ms: Math.round((performance.now() - startedMs) * 100) / 100,
    request_id: c.get("requestId"),
    client_address: c.get("clientAddress"),
    ...(caller === undefined || !log.callerFields ? {} : log.callerFields(caller)),
  });
}
