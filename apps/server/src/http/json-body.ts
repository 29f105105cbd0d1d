import { createMiddleware } from "hono/factory";
import { ApiProblem } from "./api-problem.ts";
import type { ServiceEnv } from "./service-env.ts";

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads the request body as JSON into `body` (undefined when the request has none, so that validation can tell a
 * missing body from an empty object). A body that is not JSON, by its Content-Type or its text, is answered 400
 * `INVALID_JSON`.
 */
export function jsonBody<Caller>() {
  return createMiddleware<ServiceEnv<Caller>>(async (c, next) => {
    const text = await c.req.text();
    if (text.length === 0) {
      c.set("body", undefined);
      return next();
    }
    if (!JSON_MEDIA_TYPE.test(c.req.header("content-type") ?? "")) {
      throw new ApiProblem(
        400,
        "INVALID_JSON",
        "The request body must be JSON, sent with Content-Type: application/json.",
        { hint: "Set the Content-Type header to application/json." },
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ApiProblem(400, "INVALID_JSON", "The request body is not valid JSON.", {
        hint: "Check that your request body is valid JSON.",
      });
    }
    c.set("body", body);
    await next();
  });
}
