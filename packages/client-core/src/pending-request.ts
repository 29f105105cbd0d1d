/**
 * What openapi-fetch builds for a call, in place of a `Request`, when the client sends with the runtime's own fetch:
 * the URL and the init exactly as given. The transport sends them with one `fetch(url, init)`, as a hand-written
 * call would, instead of building a Request that fetch then copies into another one. The body is openapi-fetch's
 * serialised string (or another re-sendable value), so a retry sends the same init again without cloning anything.
 */
export class PendingRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly init: RequestInit;

  constructor(url: string, init: RequestInit) {
    this.url = url;
    this.method = init.method ?? "GET";
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.init = init;
  }
}

/**
 * A `Request` constructor for openapi-fetch's `Request` option. It makes a PendingRequest, or a real `Request`
 * wherever one is needed: when middleware will see the request (`useRealRequest()`), when the caller passed a signal
 * (a Request follows it without holding on to it), or when the body is a stream (which only a Request can replay).
 */
export function pendingRequestConstructor(useRealRequest: () => boolean): typeof Request {
  // A function rather than a class, so that `new` can return a real Request instead.
  // biome-ignore lint/complexity/useArrowFunction: openapi-fetch calls it with `new`, which arrow functions refuse
  const construct = function (url: string, init: RequestInit): Request | PendingRequest {
    if (useRealRequest() || init.signal || init.body instanceof ReadableStream) {
      return new Request(url, init);
    }
    return new PendingRequest(url, init);
  };
  // openapi-fetch checks what middleware returns with `instanceof` this constructor: real Requests must pass.
  Object.defineProperty(construct, Symbol.hasInstance, {
    value: (value: unknown) => value instanceof Request || value instanceof PendingRequest,
  });
  return construct as unknown as typeof Request;
}
