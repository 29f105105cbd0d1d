/** One call of the client's fetch as the server saw it. */
export interface Exchange {
  method: string;
  url: string;
  idempotencyKey: string | null;
  /** Null when no response arrived. */
  status: number | null;
  /** The sandbox's `X-Request-Id` of the response. */
  requestId: string | null;
  /** The `Retry-After` header of the response, if any. */
  retryAfter: string | null;
  /** `performance.now()` when the request was sent. */
  sentAt: number;
  /** Whether the response was thrown away before the client saw it. */
  dropped: boolean;
}

export interface RecordingFetchOptions {
  /** How many responses to lose after the server has answered them, as a reset connection would. Default 0. */
  dropResponses?: number;
}

/**
 * A `fetch` for the clients' `fetch` option that records every exchange with the server and can lose the first
 * responses after the server handled them, so that a retry really reaches the server again.
 */
export function recordingFetch(options: RecordingFetchOptions = {}) {
  const exchanges: Exchange[] = [];
  let toDrop = options.dropResponses ?? 0;
  const fetch = async (request: Request, init?: RequestInit): Promise<Response> => {
    const exchange: Exchange = {
      method: request.method,
      url: request.url,
      idempotencyKey: request.headers.get("idempotency-key"),
      status: null,
      requestId: null,
      retryAfter: null,
      sentAt: performance.now(),
      dropped: false,
    };
    exchanges.push(exchange);
    const response = await globalThis.fetch(request, init);
    exchange.status = response.status;
    exchange.requestId = response.headers.get("x-request-id");
    exchange.retryAfter = response.headers.get("retry-after");
    if (toDrop > 0) {
      toDrop -= 1;
      exchange.dropped = true;
      await response.body?.cancel();
      throw new TypeError("fetch failed", { cause: new Error("The connection was reset after the response arrived.") });
    }
    return response;
  };
  return { fetch, exchanges };
}
