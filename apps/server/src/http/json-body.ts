import type { Context } from "hono";
import { ApiProblem } from "./api-problem.ts";
import { MAX_JSON_NESTING, nestsDeeperThan } from "./json-nesting.ts";

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads the request body as JSON: undefined when the request has none, so that validation can tell a missing body
 * from an empty object. A body that is not JSON, by its Content-Type or its text, or that nests arrays and objects
 * deeper than {@link MAX_JSON_NESTING} levels, is answered 400 `INVALID_JSON`.
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.length === 0) {
    return undefined;
  }
  if (!JSON_MEDIA_TYPE.test(c.req.header("content-type") ?? "")) {
    throw new ApiProblem(
      400,
      "INVALID_JSON",
      "The request body must be JSON, sent with Content-Type: application/json.",
      { hint: "Set the Content-Type header to application/json." },
    );
  }
  if (nestsDeeperThan(text, MAX_JSON_NESTING)) {
    throw new ApiProblem(
      400,
      "INVALID_JSON",
      `The request body nests arrays and objects deeper than ${MAX_JSON_NESTING} levels.`,
      { hint: `Send a body nested at most ${MAX_JSON_NESTING} levels deep.` },
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
