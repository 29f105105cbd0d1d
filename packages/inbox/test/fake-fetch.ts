/** One scripted answer per request: a Response, a status, an error to throw, "hang" (never answer), or a handler. */
export type Step = Response | number | Error | "hang" | ((request: Request) => Response | Promise<Response>);

export interface Recorded {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

/**
 * A fetch for `createInboxClient({ fetch })` that records every attempt (after the client has shaped it) and
 * answers from `steps` in order, then with `fallback`. It honours the attempt's abort signal like a real fetch.
 */
export function fakeFetch(steps: Step[] = [], fallback: Step = () => Response.json({})) {
  const requests: Recorded[] = [];
  const fetch = async (request: Request, init?: RequestInit): Promise<Response> => {
    requests.push({
      method: request.method,
      url: new URL(request.url),
      headers: new Headers(request.headers),
      body: await request.clone().text(),
    });
    const step = steps[requests.length - 1] ?? fallback;
    const signal = init?.signal ?? request.signal;
    if (step === "hang") {
      return new Promise((_, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    }
    if (step instanceof Error) {
      throw step;
    }
    if (typeof step === "number") {
      return new Response(null, { status: step, headers: { "retry-after-ms": "0" } });
    }
    return step instanceof Response ? step : step(request);
  };
  return { fetch, requests };
}

/** The inbox error envelope with the status's type, as the service sends it. */
export function inboxError(status: number, code: string, message: string, headers: Record<string, string> = {}) {
  const type: Record<number, string> = {
    400: "validation_error",
    401: "authentication_error",
    404: "not_found_error",
    409: "conflict_error",
    413: "payload_too_large_error",
    429: "rate_limit_error",
    500: "internal_error",
  };
  return Response.json(
    { error: { type: type[status] ?? "internal_error", message, details: { field: null, code } } },
    { status, headers: { "x-request-id": `req_${status}`, "retry-after-ms": "0", ...headers } },
  );
}
