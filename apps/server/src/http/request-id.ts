import { randomUUID } from "node:crypto";
import { createMiddleware } from "hono/factory";
import type { ServerLogger } from "../logger.ts";
import type { ServiceEnv } from "./service-env.ts";

/**
 * Gives every request an id, sent back as `X-Request-Id` on every answer and written to the one log line each
 * request gets once it is answered: a client quoting the id leads to that line.
 */
export function requestId<Caller>(service: string, logger: ServerLogger) {
  return createMiddleware<ServiceEnv<Caller>>(async (c, next) => {
    const started = performance.now();
    const id = `req_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
    c.set("requestId", id);
    c.header("X-Request-Id", id);
    await next();
    if (c.get("upgraded")) {
      return;
    }
    logger.info("request", {
      service,
      method: c.req.method,
      path: c.req.path,
      // A dropped request got no answer: its line says so rather than naming a status nobody received.
      ...(c.get("dropped") ? { dropped: true } : { status: c.res.status }),
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
      request_id: id,
    });
  });
}
