/** What a step is given: the attempt's request, and the init whose signal carries its timeout and the caller's abort. */
export type Handler = (request: Request, init: { signal: AbortSignal }) => Response | Promise<Response>;

/**
 * One scripted answer per attempt: a Response, a status (answered at once with `retry-after-ms: 0`, so retries do
 * not wait), an error to throw, "hang" (never answer, only reject when the attempt's signal aborts), or a handler.
 */
export type Step = Response | number | Error | "hang" | Handler;

/** One attempt, as the client shaped it and as it was answered. */
export interface Recorded {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
  /** The attempt's signal: its timeout and the caller's abort. */
  signal: AbortSignal;
  /** `performance.now()` when the attempt was sent. */
  sentAt: number;
  /** The answer, once there is one; undefined while it hangs or when the step threw. */
  response?: Response;
  /** Whether the answer was lost after it arrived (see `dropAnswer`), so the client saw a connection error. */
  dropped: boolean;
}

/**
 * A fetch for a client's `fetch` option that records every attempt (after the client has shaped it) and answers
 * from `steps` in order, then with `fallback`. It honours the attempt's abort signal like a real fetch.
 */
export function fakeFetch(steps: Step[] = [], fallback: Step = () => Response.json({})) {
  const requests: Recorded[] = [];
  const fetch = async (request: Request, init?: RequestInit): Promise<Response> => {
    const signal = init?.signal ?? request.signal;
    const recorded: Recorded = {
      method: request.method,
      url: new URL(request.url),
      headers: new Headers(request.headers),
      body: await request.clone().text(),
      signal,
      sentAt: performance.now(),
      dropped: false,
    };
    requests.push(recorded);
    const step = steps[requests.length - 1] ?? fallback;
    if (step === "hang") {
      return new Promise((_, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    }
    if (step instanceof Error) {
      throw step;
    }
    try {
      recorded.response =
        typeof step === "number"
          ? new Response(null, { status: step, headers: { "retry-after-ms": "0" } })
          : step instanceof Response
            ? step
            : await step(request, { signal });
    } catch (error) {
      if (error instanceof AnswerLost) {
        recorded.response = error.response;
        recorded.dropped = true;
      }
      throw error;
    }
    return recorded.response;
  };
  return { fetch, requests };
}

/** A step that sends the attempt on to the real network, such as to a server on 127.0.0.1. */
export const forward: Handler = (request, init) => globalThis.fetch(request, init);

/** The error of an answer lost on the way back: what fetch throws when the connection resets after the server acted. */
class AnswerLost extends TypeError {
  /** The answer that was lost: its status and headers are still readable. */
  readonly response: Response;

  constructor(response: Response) {
    super("fetch failed", { cause: new Error("The connection was reset after the response arrived.") });
    this.response = response;
  }
}

/**
 * A step that lets `step` answer (so the server really acts on the request), then throws the answer away as a reset
 * connection would; the attempt is recorded with its response and `dropped: true`.
 */
export function dropAnswer(step: Handler = forward): Handler {
  return async (request, init) => {
    const response = await step(request, init);
    await response.body?.cancel();
    throw new AnswerLost(response);
  };
}
