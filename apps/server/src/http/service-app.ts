import { randomUUID } from "node:crypto";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import type { ServerLogger } from "../logger.ts";
import type { SpecOperation } from "../spec/request-validator.ts";
import type { ValidationIssue } from "../spec/validation-issue.ts";
import type { ProblemCode, ProblemFormatter } from "./api-problem.ts";
import { ApiProblem } from "./api-problem.ts";
import { limitBodySize } from "./body-limit.ts";
import type { RateLimitState } from "./rate-limiter.ts";

export interface RequestContext<Principal> {
  principal: Principal;
  requestId: string;
}

/** A handler as the app calls it: validated input in, a status and JSON body out. */
export type BoundHandler<Principal> = (
  input: never,
  context: RequestContext<Principal>,
) => Promise<{ status: number; body: unknown }>;

export interface ServiceAppOptions<Principal> {
  /** Name used in log lines. */
  service: string;
  operations: readonly SpecOperation[];
  handlers: Record<string, BoundHandler<Principal>>;
  formatProblem: ProblemFormatter;
  /** Resolves an API key to its principal, or null when the key is unknown. */
  authenticate(apiKey: string): Promise<Principal | null>;
  /**
   * Counts the request against its bucket; `principal` is null when the key is missing or unknown, and only then
   * is `clientAddress` given.
   */
  rateLimit(request: { principal: Principal | null; method: string; clientAddress: string }): RateLimitState;
  maxBodyBytes: number;
  logger: ServerLogger;
  /** Refines the code of a validation issue (the inbox names too many recipients specially). */
  issueCode?(issue: ValidationIssue): ProblemCode;
}

type Env<Principal> = { Variables: { requestId: string; principal: Principal } };

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
// Every header a client reads from an answer: a browser on another origin sees only these. The clients need
// `X-Should-Retry` to stop retrying a conflict, and `Allow` names a path's methods on a 405.
const EXPOSED_HEADERS = [
  "X-Request-Id",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Retry-After",
  "X-Should-Retry",
  "Allow",
];

const toHonoPath = (specPath: string) => specPath.replace(/\{([^}]+)\}/g, ":$1");

function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** A repeated query parameter stays a list (and fails a scalar schema); a single one becomes its value. */
const singleValues = (queries: Record<string, string[]>): Record<string, string | string[]> =>
  Object.fromEntries(
    Object.entries(queries).map(([name, values]) => [name, values.length === 1 ? (values[0] ?? "") : values]),
  );

async function readJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.length === 0) {
    return undefined;
  }
  const contentType = c.req.header("content-type") ?? "";
  if (!JSON_MEDIA_TYPE.test(contentType)) {
    throw new ApiProblem(
      400,
      "INVALID_JSON",
      "The request body must be JSON, sent with Content-Type: application/json.",
      {
        hint: "Set the Content-Type header to application/json.",
      },
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiProblem(400, "INVALID_JSON", "The request body is not valid JSON.", {
      hint: "Check that your request body is valid JSON.",
    });
  }
}

/**
 * One service as a Hono app: request ids and logs, CORS, `/health`, authentication, rate limits, body limits, spec
 * validation of every operation, and errors in the service's envelope. Unknown routes answer 404, a known path with
 * a method it does not have 405 (with `Allow`), and unexpected exceptions 500, all in the envelope.
 */
export function createServiceApp<Principal>(options: ServiceAppOptions<Principal>): Hono<Env<Principal>> {
  const { logger, formatProblem } = options;
  const app = new Hono<Env<Principal>>();

  const problemResponse = (c: Context, problem: ApiProblem) => {
    const { status, body } = formatProblem(problem);
    if (problem.details.retryAfterSeconds !== undefined) {
      c.header("Retry-After", String(problem.details.retryAfterSeconds));
    }
    for (const [name, value] of Object.entries(problem.details.headers ?? {})) {
      c.header(name, value);
    }
    // A body left unread (an oversize upload, or one refused before reading) makes the connection unusable for the
    // next request: say so, rather than let the client reuse a socket the server is about to drop.
    if (c.req.raw.body !== null && !c.req.raw.bodyUsed) {
      c.header("Connection", "close");
    }
    return c.json(body as object, status);
  };

  app.use(async (c, next) => {
    const started = performance.now();
    const requestId = `req_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
    c.set("requestId", requestId);
    c.header("X-Request-Id", requestId);
    await next();
    logger.info("request", {
      service: options.service,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
      request_id: requestId,
    });
  });

  const preflight = cors({ origin: "*", exposeHeaders: EXPOSED_HEADERS, maxAge: 600 });
  const exposedHeaders = EXPOSED_HEADERS.join(",");
  app.use((c, next) => {
    if (c.req.method === "OPTIONS") {
      return preflight(c, next);
    }
    // What `cors` adds to every other answer, added before the answer exists: `cors` writes to `c.res`, which makes
    // Hono build a placeholder response and then copy it into the real one, on every request.
    c.header("Access-Control-Allow-Origin", "*");
    c.header("Access-Control-Expose-Headers", exposedHeaders);
    return next();
  });

  app.get("/health", (c) => c.json({ status: "ok" }));

  app.use(async (c, next) => {
    const match = BEARER.exec(c.req.header("authorization") ?? "");
    const principal = match?.[1] ? await options.authenticate(match[1]) : null;
    const limit = options.rateLimit({
      principal,
      method: c.req.method,
      clientAddress: principal === null ? clientAddress(c) : "",
    });
    c.header("X-RateLimit-Limit", String(limit.limit));
    c.header("X-RateLimit-Remaining", String(limit.remaining));
    c.header("X-RateLimit-Reset", String(limit.resetAt));
    if (principal === null) {
      throw match
        ? new ApiProblem(401, "INVALID_API_KEY", "The API key is not valid.", {
            hint: "Check your API key; it does not match any key of this service.",
          })
        : new ApiProblem(401, "MISSING_API_KEY", "Send the API key as 'Authorization: Bearer <key>'.", {
            hint: "Add the header 'Authorization: Bearer YOUR_API_KEY'.",
          });
    }
    if (limit.limited) {
      throw new ApiProblem(
        429,
        "RATE_LIMIT_EXCEEDED",
        `Rate limit of ${limit.limit} ${limit.limit === 1 ? limit.unit.replace(/s$/, "") : limit.unit} per minute exceeded.`,
        {
          retryAfterSeconds: limit.retryAfterSeconds,
          hint: `Try again in ${limit.retryAfterSeconds} seconds.`,
        },
      );
    }
    c.set("principal", principal);
    await next();
  });

  const maxMiB = options.maxBodyBytes / (1024 * 1024);
  app.use(
    limitBodySize({
      maxSize: options.maxBodyBytes,
      onError: () => {
        throw new ApiProblem(413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${maxMiB} MiB.`, {
          hint: `Send a body of at most ${options.maxBodyBytes} bytes.`,
        });
      },
    }),
  );

  const methodsByPath = new Map<string, string[]>();
  for (const operation of options.operations) {
    const handler = options.handlers[operation.operationId];
    if (!handler) {
      throw new Error(`No handler for operation ${operation.operationId}.`);
    }
    const method = operation.method.toUpperCase();
    methodsByPath.set(operation.path, [...(methodsByPath.get(operation.path) ?? []), method]);
    app.on(method, toHonoPath(operation.path), async (c) => {
      const body = method === "GET" || method === "DELETE" ? undefined : await readJsonBody(c);
      const result = operation.validate({
        path: c.req.param() as Record<string, string>,
        query: singleValues(c.req.queries()),
        header: (name) => c.req.header(name),
        body,
      });
      if (!result.ok) {
        throw ApiProblem.fromIssue(result.issue, options.issueCode?.(result.issue));
      }
      const reply = await handler(result.request as never, {
        principal: c.get("principal"),
        requestId: c.get("requestId"),
      });
      return reply.status === 204 ? c.body(null, 204) : c.json(reply.body as object, reply.status as 200);
    });
  }

  // A known path with a method it does not have answers 405 in the envelope and names the methods it does have.
  for (const [path, methods] of methodsByPath) {
    app.all(toHonoPath(path), (c) => {
      throw new ApiProblem(
        405,
        "METHOD_NOT_ALLOWED",
        `${c.req.method} is not supported on ${c.req.path}; use ${methods.join(", ")}.`,
        {
          field: null,
          hint: `Use ${methods.join(" or ")} on this path.`,
          headers: { Allow: methods.join(", ") },
        },
      );
    });
  }

  app.notFound((c) =>
    problemResponse(
      c,
      new ApiProblem(404, "NOT_FOUND", `There is no operation at ${c.req.method} ${c.req.path}.`, {
        field: null,
        hint: "Check the method and path against the API reference.",
      }),
    ),
  );

  app.onError((error, c) => {
    if (error instanceof ApiProblem) {
      return problemResponse(c, error);
    }
    if (error instanceof HTTPException && error.status < 500) {
      return problemResponse(
        c,
        new ApiProblem(400, "INVALID_VALUE", error.message || "The request could not be read.", { field: null }),
      );
    }
    logger.error("unexpected error", {
      service: options.service,
      request_id: c.get("requestId"),
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return problemResponse(
      c,
      new ApiProblem(500, "INTERNAL_ERROR", "An unexpected error occurred; quote the X-Request-Id when reporting it.", {
        field: null,
        hint: "Please try again later.",
      }),
    );
  });

  return app;
}
