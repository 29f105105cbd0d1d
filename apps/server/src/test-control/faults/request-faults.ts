import { setTimeout as sleep } from "node:timers/promises";
import type { HttpBindings } from "@hono/node-server";
import type { Context, MiddlewareHandler } from "hono";
import type { ServiceEnv } from "../../http/service-env.ts";
import type { ServiceName } from "../../service-name.ts";
import { faultAnswerBody, faultAnswerHeaders } from "./fault-answer-body.ts";
import type { FaultRegistry } from "./fault-registry.ts";

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** The connection a request came on, when the app runs on Node's HTTP server. */
const socketOf = (c: Context) => (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket;

/**
 * Applies request faults to one service's requests, before anything else handles them: answers a status instead
 * (`respond`), closes the connection without an answer before or after handling (`drop`), or handles the request
 * after a delay (`delay`). A request no fault matches passes untouched.
 */
export function applyRequestFaults(
  faults: FaultRegistry,
  service: ServiceName,
): MiddlewareHandler<ServiceEnv<unknown>> {
  return async (c, next) => {
    if (faults.isEmpty) {
      return next();
    }
    const applied = faults.takeRequestFault({
      method: c.req.method,
      path: c.req.path,
      apiKey: BEARER.exec(c.req.header("authorization") ?? "")?.[1],
    });
    if (!applied) {
      return next();
    }
    const { action } = applied;
    switch (action.type) {
      case "respond": {
        const body = action.body === undefined ? faultAnswerBody(service, action.status) : action.body;
        // The service's own headers for the status first, so that the fault's headers replace them.
        for (const [name, value] of Object.entries({ ...faultAnswerHeaders(action.status), ...action.headers })) {
          c.header(name, value);
        }
        return c.json(body ?? null, action.status as 400);
      }
      case "delay":
        await sleep(action.ms);
        return next();
      case "drop":
        if (action.when === "after") {
          // The handler has committed its work once `next` resolves; only the answer is lost.
          await next();
        }
        socketOf(c)?.destroy();
        // Nothing reaches the client: its connection is gone, and the request's log line says it was dropped.
        c.set("dropped", true);
        return c.body(null, 503);
    }
  };
}
