import type { Context, MiddlewareHandler } from "hono";
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { LogFields, ServerLogger } from "../logger.ts";
import type { RequestMeter } from "../metrics/instruments.ts";
import type { SpecOperation } from "../spec/request-validator.ts";
import { admitCaller } from "./admission.ts";
import { completeAnswerHeaders } from "./answer.ts";
import type { HttpProblemCode, ProblemFormatter } from "./api-problem.ts";
import type { AuthFailureLimiter } from "./auth-failure-limiter.ts";
import type { Authenticate } from "./authenticate.ts";
import { limitRequestBody } from "./body-limit.ts";
import { clientAddressOf } from "./client-address.ts";
import { allowAnyOrigin, answerPreflight } from "./cors.ts";
import { methodNotAllowed, notFound, onError } from "./errors.ts";
import { forwardedOriginOf } from "./forwarded-origin.ts";
import type { IssueCoder, OperationHandlerMap } from "./operation-route.ts";
import { operationRoute } from "./operation-route.ts";
import type { RateLimit } from "./rate-limit.ts";
import { limitRateByAddress } from "./rate-limit.ts";
import type { RateLimitState } from "./rate-limiter.ts";
import type { Readiness } from "./readiness.ts";
import { readinessRoute } from "./readiness.ts";
import type { RequestLog } from "./request-id.ts";
import { assignRequestId, logAnswered } from "./request-id.ts";
import { RouteLabels } from "./route-labels.ts";
import type { ServiceEnv } from "./service-env.ts";

export interface ServiceAppOptions<Caller, Code extends string> {
  /** Name used in log lines. */
  service: string;
  operations: readonly SpecOperation[];
  handlers: OperationHandlerMap<Caller>;
  /** Handlers of the operations anyone may call without a key (the spec gives them `security: []`). */
  publicHandlers?: OperationHandlerMap<null>;
  /** The limit of those operations, by client address alone; they are not counted by `rateLimit`. */
  publicRateLimit?: (clientAddress: string) => Promise<RateLimitState>;
  /** Answers a problem in the service's envelope; `Code` is the service's vocabulary. */
  formatProblem: ProblemFormatter<Code>;
  authenticate: Authenticate<Caller>;
  /** Counts requests without a valid key per client address, and refuses an address past its limit (429). */
  authFailures?: AuthFailureLimiter;
  /** Counts requests against their key's (or address's) limit; none when omitted (test control is not limited). */
  rateLimit?: RateLimit<Caller>;
  maxBodyBytes: number;
  /** Addresses of proxies in front whose `X-Forwarded-For` names the client (see client-address.ts). */
  trustedProxies?: readonly string[];
  logger: ServerLogger;
  /** What a request line says of its caller once its key is accepted (a pod or agent id; never the key). */
  callerLogFields?: (caller: Caller) => LogFields;
  issueCode?: IssueCoder<Code>;
  /** Paths outside the spec's operations, served after authentication and the rate limit. */
  extraRoutes?: Record<string, MiddlewareHandler<ServiceEnv<Caller>>>;
  /** Paths that also accept the key as `?api_key=` (see authenticate.ts). */
  queryKeyPaths?: readonly string[];
  /**
   * Runs first on every request, after its id is given and before anything looks at its key: test control's request
   * faults, which may answer in place of the service.
   */
  requestFaults?: MiddlewareHandler;
  /**
   * Serves `GET /ready` beside `/health`, without a key or a limit; once it is draining, every answer closes its
   * connection, so that clients and balancers holding one open reconnect elsewhere.
   */
  readiness?: Readiness;
  /** Counts each answer by operation and status, with its duration; nothing is counted (or looked up) without it. */
  requestMeter?: RequestMeter;
}

const BODYLESS_METHODS = new Set(["GET", "DELETE"]);

const toHonoPath = (specPath: string) => specPath.replace(/\{([^}]+)\}/g, ":$1");

/**
 * What every request goes through first, as one middleware: its id and its log line, its client address, and the CORS
 * headers of its answer; once answered, the answer gets every header the request gathered. One middleware rather
 * than one for each: every layer of Hono middleware costs a few promise round trips on every request.
 */
function receiveRequest<Caller>(
  log: RequestLog<Caller>,
  trustedProxies: readonly string[],
  counting: { meter: RequestMeter; labels: RouteLabels } | undefined,
) {
  const trusted = new Set(trustedProxies);
  return createMiddleware<ServiceEnv<Caller>>(async (c, next) => {
    const started = performance.now();
    assignRequestId(c);
    c.set("clientAddress", clientAddressOf(c, trusted));
    const forwardedOrigin = forwardedOriginOf(c, trusted);
    if (forwardedOrigin !== null) {
      c.set("forwardedOrigin", forwardedOrigin);
    }
    allowAnyOrigin(c);
    await next();
    completeAnswerHeaders(c);
    logAnswered(c, log, started);
    counting?.meter.answered(log.service, counting.labels.of(c), c.res.status, (performance.now() - started) / 1000);
  });
}

/**
 * One service as a Hono app: request ids and logs, CORS, `/health` and `/ready`, authentication, rate limits, body
 * limits, spec validation of every operation, and errors in the service's envelope. Unknown routes answer 404, a known
 * path with a method it does not have 405 (with `Allow`), and unexpected exceptions 500, all in the envelope.
 */
export function createServiceApp<Caller, Code extends string = HttpProblemCode>(
  options: ServiceAppOptions<Caller, Code>,
): Hono<ServiceEnv<Caller>> {
  const app = new Hono<ServiceEnv<Caller>>();
  const log = { service: options.service, logger: options.logger, callerFields: options.callerLogFields };
  // Every route is named for the request counts; a route's name is its operationId or a fixed one, never a path sent.
  const labels = new RouteLabels();
  const counting = options.requestMeter ? { meter: options.requestMeter, labels } : undefined;
  app.use(receiveRequest(log, options.trustedProxies ?? [], counting));
  // Preflights are answered here, before authentication (and before test control's faults).
  app.options("*", labels.name(answerPreflight(), "preflight"));
  if (options.requestFaults) {
    app.use(options.requestFaults);
  }
  // Liveness: the process answers. Readiness (`/ready`): it should be sent requests (see readiness.ts).
  app.get(
    "/health",
    labels.name((c: Context) => c.json({ status: "ok" }), "health"),
  );
  if (options.readiness) {
    app.get("/ready", labels.name(readinessRoute(options.readiness), "ready"));
  }

  const methodsByPath = new Map<string, string[]>();
  const bodyLimit = limitRequestBody(options.maxBodyBytes);
  const route = <HandlerCaller extends Caller | null>(
    operation: SpecOperation,
    handler: OperationHandlerMap<HandlerCaller>[string] | undefined,
    callerOf: (c: Context<ServiceEnv<Caller>>) => HandlerCaller,
    before: MiddlewareHandler<ServiceEnv<Caller>>[] = [],
  ) => {
    if (!handler) {
      throw new Error(`No handler for operation ${operation.operationId}.`);
    }
    const method = operation.method.toUpperCase();
    methodsByPath.set(operation.path, [...(methodsByPath.get(operation.path) ?? []), method]);
    const serve = operationRoute({
      operation,
      handler,
      issueCode: options.issueCode,
      callerOf,
      bodyLimit: BODYLESS_METHODS.has(method) ? null : bodyLimit,
    });
    // Handlers of one route run in the order they are added, each passing on with `next()`.
    for (const each of [...before, serve]) {
      app.on(method, toHonoPath(operation.path), labels.name(each, operation.operationId));
    }
  };
  // Operations anyone may call come before anything looks at the key: a key sent along is ignored. Every other
  // path answers 401 without a valid key.
  for (const operation of options.operations.filter((each) => each.public)) {
    const limits = options.publicRateLimit ? [limitRateByAddress<Caller>(options.publicRateLimit)] : [];
    route(operation, options.publicHandlers?.[operation.operationId], () => null, limits);
  }
  app.use(
    admitCaller(
      {
        authenticate: options.authenticate,
        queryKeyPaths: new Set(options.queryKeyPaths),
        failures: options.authFailures,
      },
      options.rateLimit,
    ),
  );
  // A path ending in a literal (`.../messages/send`) is matched by its parametrized sibling too
  // (`.../messages/{message_id}`): its 405 comes before the sibling's routes, so a method it lacks is not answered
  // as the sibling's.
  for (const path of new Set(options.operations.map((each) => each.path))) {
    if (!path.endsWith("}")) {
      const allowed = options.operations.filter((each) => each.path === path).map((each) => each.method.toUpperCase());
      const others = ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((method) => !allowed.includes(method));
      if (others.length > 0) {
        app.on(others, toHonoPath(path), labels.name(methodNotAllowed(allowed), "method_not_allowed"));
      }
    }
  }
  for (const operation of options.operations.filter((each) => !each.public)) {
    route(operation, options.handlers[operation.operationId], (c) => c.get("caller"));
  }
  for (const [path, handler] of Object.entries(options.extraRoutes ?? {})) {
    // Named by their path, which the code gives (a few, fixed). Labels are found by handler, so each path gets a
    // handler of its own even where two paths share one.
    app.get(
      path,
      labels.name((c, next) => handler(c, next), path),
    );
    methodsByPath.set(path, ["GET"]);
  }
  for (const [path, methods] of methodsByPath) {
    app.all(toHonoPath(path), labels.name(methodNotAllowed(methods), "method_not_allowed"));
  }

  app.notFound(notFound(options.formatProblem));
  app.onError(onError(options.service, options.formatProblem, options.logger));
  return app;
}
