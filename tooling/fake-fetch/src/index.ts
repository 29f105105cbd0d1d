/** One scripted answer per request: a Response, a status, an error to throw, "hang" (never answer), or a handler. */
export type Step = Response | number | Error | "hang" | ((request: Request) => Response | Promise<Response>);

export interface Recorded {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

/**
 * A fetch for a client's `fetch` option that records every attempt (after the client has shaped it) and
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
