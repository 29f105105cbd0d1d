import type { Context } from "hono";
import type { ServiceEnv } from "./service-env.ts";

// The headers every answer to a request carries (its id, CORS, where its rate limit stands) are gathered in a plain
// record rather than with `c.header`: Hono keeps those in a WHATWG `Headers`, whose every `set` validates its
// arguments and whose reading sorts them, and the Node adapter then copies them into a record again. An answer built
// by `answer` hands Node's `writeHead` one record, which costs a few property writes. Both the record and the answer
// built from it are the request's variables (not entries of a WeakMap, which would make every garbage collection
// visit each request's entry).

/** The headers every answer to this request carries, by lower-case name: set them here, before the answer exists. */
export function answerHeaders<Caller>(c: Context<ServiceEnv<Caller>>): Record<string, string> {
  let record = c.get("answerHeaders");
  if (record === undefined) {
    record = {};
    c.set("answerHeaders", record);
  }
  return record;
}

/**
 * The answer to the request: `body` with the request's headers and `headers` (which win over the request's), in the
 * bytes Hono's own answers have: names in lower case and sorted, then `Content-Length` for a text body.
 */
export function answer<Caller>(
  c: Context<ServiceEnv<Caller>>,
  status: number,
  body: string | null,
  headers: Readonly<Record<string, string>> = {},
): Response {
  const merged: Record<string, string> = { ...c.get("answerHeaders") };
  for (const name in headers) {
    merged[name.toLowerCase()] = headers[name] as string;
  }
  const sorted: Record<string, string> = {};
  for (const name of Object.keys(merged).sort()) {
    sorted[name] = merged[name] as string;
  }
  // Hono answers HEAD with a copy of the GET answer's headers, which the length is not yet among.
  if (body !== null && c.req.method !== "HEAD") {
    sorted["Content-Length"] = String(Buffer.byteLength(body));
  }
  const response = new Response(body, { status, headers: sorted });
  c.set("answered", response);
  return response;
}

/** A JSON answer, as `c.json` would give it. */
export const answerJson = <Caller>(
  c: Context<ServiceEnv<Caller>>,
  status: number,
  body: unknown,
  headers?: Readonly<Record<string, string>>,
) => answer(c, status, JSON.stringify(body), { "content-type": "application/json", ...headers });

/**
 * Gives an answer built elsewhere (Hono's own, such as a CORS preflight, a test-control fault or a WebSocket upgrade)
 * the request's headers it lacks, as `c.header` before the answer would have.
 */
export function completeAnswerHeaders<Caller>(c: Context<ServiceEnv<Caller>>): void {
  const record = c.get("answerHeaders");
  if (record === undefined || c.get("answered") === c.res) {
    return;
  }
  const { headers } = c.res;
  for (const name in record) {
    if (!headers.has(name)) {
      headers.set(name, record[name] as string);
    }
  }
}
