import type { IncomingMessage } from "node:http";
import type { Context, ErrorHandler, Handler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ServerLogger } from "../logger.ts";
import { answerJson } from "./answer.ts";
import type { HttpProblemCode, ProblemFormatter } from "./api-problem.ts";
import { ApiProblem } from "./api-problem.ts";
import type { ServiceEnv } from "./service-env.ts";

/** Answers a problem in the service's envelope, with the headers it asks for. */
function problemResponse<Code extends string>(
  c: Context,
  problem: ApiProblem<Code | HttpProblemCode>,
  format: ProblemFormatter<Code>,
) {
  const { status, body } = format(problem);
  const { retryAfterSeconds } = problem.details;
  const headers: Record<string, string> = {
    ...(retryAfterSeconds === undefined ? {} : { "retry-after": String(retryAfterSeconds) }),
    ...problem.details.headers,
  };
  // A body left unread (an oversize upload, or one refused before reading) makes the connection unusable for the
  // next request: say so, rather than let the client reuse a socket the server is about to drop.
  if (bodyLeftUnread(c)) {
    headers.connection = "close";
  }
  return answerJson(c, status, body, headers);
}

/**
 * Whether the request came with a body that was not read to its end: refused before reading, or partway through (a
 * chunked body past the size limit, which Hono's `bodyLimit` stops reading). On Node the request's own stream says
 * so; a body begun is not a body read, and the rest of it would stall the connection until the server drops it.
 */
function bodyLeftUnread(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming === undefined) {
    return c.req.raw.body !== null && !c.req.raw.bodyUsed;
  }
  const { headers } = incoming;
  const hasBody =
    headers["transfer-encoding"] !== undefined || Number.parseInt(headers["content-length"] ?? "0", 10) > 0;
  return hasBody && !incoming.readableEnded;
}

/** A path no operation has: 404 in the envelope. */
export function notFound<Code extends string>(format: ProblemFormatter<Code>): NotFoundHandler {
  return (c) =>
    problemResponse(
      c,
      new ApiProblem(404, "NOT_FOUND", `There is no operation at ${c.req.method} ${c.req.path}.`, {
        field: null,
        hint: "Check the method and path against the API reference.",
      }),
      format,
    );
}

/** A known path with a method it does not have: 405 in the envelope, naming the methods it does have in `Allow`. */
export function methodNotAllowed(methods: readonly string[]): Handler {
  return (c) => {
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
  };
}

/**
 * Answers whatever a request threw: a problem in the envelope, a request Hono could not read as 400, and anything
 * else as 500 with the error logged under the request id (the answer never carries the error itself).
 */
export function onError<Caller, Code extends string>(
  service: string,
  format: ProblemFormatter<Code>,
  logger: ServerLogger,
): ErrorHandler<ServiceEnv<Caller>> {
  return (error, c) => {
    if (error instanceof ApiProblem) {
      return problemResponse(c, error, format);
    }
    if (error instanceof HTTPException && error.status < 500) {
      return problemResponse(
        c,
        new ApiProblem(400, "INVALID_VALUE", error.message || "The request could not be read.", { field: null }),
        format,
      );
    }
    logger.error("unexpected error", {
      service,
      request_id: c.get("requestId"),
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return problemResponse(
      c,
      new ApiProblem(500, "INTERNAL_ERROR", "An unexpected error occurred; quote the X-Request-Id when reporting it.", {
        field: null,
        hint: "Please try again later.",
      }),
      format,
    );
  };
}
