import type { InboxClientOptions, RetryEvent } from "@pigeonhole/inbox";
import { type Context, Hono, type HonoRequest } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type Problem, type Retry, type Service, WRONG_KEY_HEADER } from "../shared/wire.ts";
import { describeProblem } from "./describe-problem.ts";
import type { EventHub } from "./event-hub.ts";
import { log } from "./log.ts";

const WRONG_API_KEY = "not-a-valid-key";

/** Both clients have `withOptions`, which returns a copy of the client with some options changed. */
interface Reconfigurable<C> {
  withOptions(options: InboxClientOptions): C;
}

export type ServiceEnv<C> = { Variables: { client: C; retries: Retry[] } };

/**
 * The `/api` routes of one service. Each request gets its own copy of the client `clientFor` picks for it, whose
 * `onRetry` hook collects the retries of this request, and every answer carries them: `{data, retries}` on success,
 * `{problem, retries}` on failure, with the API's status. Each retry is also pushed to the pages as it happens, and so
 * is a success that needed retries.
 */
export function serviceRoutes<C extends Reconfigurable<C>>(
  service: Service,
  clientFor: (request: HonoRequest) => C | Promise<C>,
  events: EventHub,
) {
  const routes = new Hono<ServiceEnv<C>>();
  routes.use(async (c, next) => {
    const client = await clientFor(c.req);
    const retries: Retry[] = [];
    const onRetry = (event: RetryEvent) => {
      const retry = describeRetry(service, event);
      retries.push(retry);
      events.publish({ type: "retry", retry });
    };
    const wrongKey = c.req.header(WRONG_KEY_HEADER) === "1" ? { apiKey: WRONG_API_KEY } : {};
    c.set("retries", retries);
    c.set("client", client.withOptions({ onRetry, ...wrongKey }));
    await next();
    // A failure's retries are shown with its problem; that a call went through after retries is told here.
    const last = retries.at(-1);
    if (last !== undefined && c.res.ok) {
      const { method, path } = last;
      events.publish({ type: "recovered", recovery: { service, method, path, retries: retries.length } });
    }
  });
  routes.onError((error, c) => {
    const retries = c.var.retries ?? [];
    const described = describeProblem(error, service);
    if (described === undefined) {
      log(`${c.req.method} ${c.req.path} failed: ${error.stack ?? error.message}`);
      const problem: Problem = {
        service,
        kind: "other",
        status: 500,
        message: "The sample server failed; see its log.",
      };
      return c.json({ problem, retries }, 500);
    }
    return c.json({ problem: described.problem, retries }, described.status as ContentfulStatusCode);
  });
  return routes;
}

/** The success answer of a route. */
export function ok<T, C>(c: Context<ServiceEnv<C>>, data: T): Response {
  return c.json({ data, retries: c.var.retries });
}

/** A retry as the page shows it: what was retried, the status or connection error that caused it, and the wait. */
function describeRetry(service: Service, { request, reason, delay }: RetryEvent): Retry {
  return {
    service,
    method: request.method,
    path: decodeURIComponent(new URL(request.url).pathname),
    reason: typeof reason === "number" ? String(reason) : reason.name,
    delayMs: delay,
  };
}
