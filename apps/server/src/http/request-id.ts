import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import type { ServerLogger } from "../logger.ts";
import { answerHeaders } from "./answer.ts";
import type { ServiceEnv } from "./service-env.ts";

/**
 * Gives the request an id, sent back as `X-Request-Id` on every answer and written to the one log line the request
 * gets once it is answered (see `logAnswered`): a client quoting the id leads to that line.
 */
export function assignRequestId<Caller>(c: Context<ServiceEnv<Caller>>): string {
  const id = `req_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  c.set("requestId", id);
  answerHeaders(c)["x-request-id"] = id;
  return id;
}

/** Writes the log line of an answered request, which started at `startedMs` (`performance.now()`). */
export function logAnswered<Caller>(
  c: Context<ServiceEnv<Caller>>,
  service: string,
  logger: ServerLogger,
  startedMs: number,
): void {
  if (c.get("upgraded")) {
    return;
  }
  logger.info("request", {
    service,
    method: c.req.method,
    path: c.req.path,
    // A dropped request got no answer: its line says so rather than naming a status nobody received.
    ...(c.get("dropped") ? { dropped: true } : { status: c.res.status }),
    duration_ms: Math.round((performance.now() - startedMs) * 100) / 100,
    request_id: c.get("requestId"),
  });
}
