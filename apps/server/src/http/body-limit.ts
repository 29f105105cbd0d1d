import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiProblem } from "./api-problem.ts";

export interface BodyLimitOptions {
  maxSize: number;
  onError(c: Context): Response | Promise<Response>;
}

/**
 * Hono's `bodyLimit`, without its cost where the headers already give the answer. `bodyLimit` reads
 * `c.req.raw.body`, which makes the Node adapter build a whole Request and later stream the body through it. A GET
 * or HEAD has no body there, and a body with a Content-Length (and no Transfer-Encoding) is judged by that header,
 * as `bodyLimit` judges it; the body is then read straight from the socket. Only a chunked body is counted as it
 * streams, by `bodyLimit` itself.
 */
export function limitBodySize(options: BodyLimitOptions): MiddlewareHandler {
  const countWhileStreaming = bodyLimit(options);
  return async (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD") {
      return next();
    }
    const length = c.req.header("content-length");
    if (length !== undefined && c.req.header("transfer-encoding") === undefined) {
      return Number.parseInt(length, 10) > options.maxSize ? options.onError(c) : next();
    }
    return countWhileStreaming(c, next);
  };
}

/** Refuses a request body over `maxBytes` with 413 `PAYLOAD_TOO_LARGE`, naming the limit. */
export function limitRequestBody(maxBytes: number): MiddlewareHandler {
  const maxMiB = maxBytes / (1024 * 1024);
  return limitBodySize({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiProblem(413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${maxMiB} MiB.`, {
        hint: `Send a body of at most ${maxBytes} bytes.`,
      });
    },
  });
}
