import createClient, {
  createQuerySerializer,
  type FetchResponse,
  type HeadersOptions,
  type Middleware,
  mergeHeaders,
} from "openapi-fetch";
import type { MediaType } from "openapi-typescript-helpers";
import { readEnv } from "./env.js";
import { PigeonholeError } from "./errors.js";
import type { PageCursor } from "./list-pages.js";
import { pageItems } from "./list-pages.js";
import type { Logger, LogLevel } from "./logger.js";
import { type Paginator, paginate } from "./pagination.js";
import type {
  CallInit,
  HttpMethod,
  InitParam,
  ItemOf,
  ListPath,
  OperationOf,
  PageOf,
  PathsWithMethod,
  StrictInitParam,
  SuccessData,
} from "./path-types.js";
import { pendingRequestConstructor } from "./pending-request.js";
import { createTransport, type Fetch, type RequestOptions } from "./transport.js";
import { type ErrorFromResponse, unwrap } from "./unwrap.js";

/** Options of `createInboxClient` / `createForumClient`; every one has a default. */
export interface ClientOptions {
  /** Sent as `Authorization: Bearer <apiKey>`. Defaults to the service's `PIGEONHOLE_*_API_KEY` variable. */
  apiKey?: string | undefined;
  /** The service's origin, without the version prefix. Defaults to `PIGEONHOLE_*_BASE_URL`, then the local server. */
  baseUrl?: string | undefined;
  /** Replaces `globalThis.fetch`, e.g. to add a proxy or instrumentation; see `Fetch` for what it receives. */
  fetch?: Fetch | undefined;
  /** Sent with every request; a `null` value removes a header the client would send. */
  defaultHeaders?: HeadersOptions | undefined;
  /** Milliseconds to wait for the response headers, per attempt. Default 60 000. */
  timeout?: number | undefined;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number | undefined;
  /** Receives the log lines; defaults to the console. Authorization and other credentials are always redacted. */
  logger?: Logger | undefined;
  /** Lowest level passed to the logger: "debug" | "info" | "warn" | "error" | "off". Default "warn". */
  logLevel?: LogLevel | undefined;
}

/** How one service differs: its environment, its address, its paging style, its idempotency header and its errors. */
export interface ServiceDefinition<TPage> {
  /** Name of the factory function, quoted in configuration errors. */
  factory: string;
  apiKeyEnv: string;
  baseUrlEnv: string;
  defaultBaseUrl: string;
  /** The header the service deduplicates writes by, if it has one. */
  idempotencyHeader?: string;
  pageCursor: PageCursor<TPage>;
  /** The service's error classes (from `defineServiceErrors`); the throwing style throws what `fromResponse` builds. */
  errors: { fromResponse: ErrorFromResponse };
}

/** Result style: openapi-fetch's method, unchanged; resolves to `{ data, error, response }` and never throws for HTTP errors. */
export type ResultMethod<Paths extends object, M extends HttpMethod, Options> = <
  P extends PathsWithMethod<Paths, M>,
  Init extends CallInit<Paths[P], M, Options>,
>(
  path: P,
  ...init: InitParam<Init>
) => Promise<FetchResponse<OperationOf<Paths[P], M>, Init, MediaType>>;

/**
 * Throwing style: resolves to the JSON body of the success response, or throws the service's `APIError` subclass
 * for the answer. The init is checked strictly (an unknown option is a type error), and bodies are always parsed as JSON.
 */
export type DataMethod<Paths extends object, M extends HttpMethod, Options> = <P extends PathsWithMethod<Paths, M>>(
  path: P,
  ...init: StrictInitParam<CallInit<Paths[P], M, Options & { parseAs?: "json" }>>
) => Promise<SuccessData<OperationOf<Paths[P], M>>>;

/** The HTTP methods the clients offer: those an API spec of this project can use. */
export type ClientMethod = "get" | "put" | "post" | "patch" | "delete";

/** A typed client of one API: both call styles for every operation of its spec, plus auto-pagination. */
export type ApiClient<Paths extends object, TPage, Options = RequestOptions> = {
  [M in ClientMethod as Uppercase<M>]: ResultMethod<Paths, M, Options>;
} & {
  /** Result style with the method as an argument: `client.request("get", path, init)`. */
  request<M extends ClientMethod, P extends PathsWithMethod<Paths, M>, Init extends CallInit<Paths[P], M, Options>>(
    method: M,
    path: P,
    ...init: InitParam<Init>
  ): Promise<FetchResponse<OperationOf<Paths[P], M>, Init, MediaType>>;
} & {
  [M in ClientMethod]: DataMethod<Paths, M, Options>;
} & {
  /**
   * Every item of a list path across all its pages, fetched page by page as you iterate with `for await`;
   * `.pages()` yields whole pages and `.firstPage()` fetches one. Only list paths are accepted.
   */
  paginate<P extends ListPath<Paths, TPage>>(
    path: P,
    ...init: StrictInitParam<CallInit<Paths[P], "get", Options & { parseAs?: "json" }>>
  ): Paginator<PageOf<Paths[P]>, ItemOf<PageOf<Paths[P]>>>;
  /** openapi-fetch middleware, applied to calls of both styles. */
  use(...middleware: Middleware[]): void;
  eject(...middleware: Middleware[]): void;
  /** A new client with these options changed and the rest kept. */
  withOptions(options: ClientOptions): ApiClient<Paths, TPage, Options>;
};

const METHODS = { get: "GET", put: "PUT", post: "POST", patch: "PATCH", delete: "DELETE" } as const;

interface LooseInit {
  middleware?: Middleware[];
  params?: { query?: Record<string, unknown> } & Record<string, unknown>;
  [key: string]: unknown;
}
type LooseMethod = (
  path: string,
  init?: LooseInit,
) => Promise<FetchResponse<Record<string, never>, unknown, MediaType>>;

/** Builds a client for one service; `@pigeonhole/inbox` and `@pigeonhole/forum` are thin calls of this. */
export function createApiClient<Paths extends object, TPage, Options = RequestOptions>(
  service: ServiceDefinition<TPage>,
  options: ClientOptions = {},
): ApiClient<Paths, TPage, Options> {
  const apiKey = options.apiKey ?? readEnv(service.apiKeyEnv);
  if (typeof apiKey !== "string" || apiKey.trim() === "") {
    throw new PigeonholeError(
      `Missing API key: pass { apiKey } to ${service.factory}() or set the ${service.apiKeyEnv} environment variable.`,
    );
  }
  const baseUrl = options.baseUrl ?? readEnv(service.baseUrlEnv) ?? service.defaultBaseUrl;
  if (!isAbsoluteUrl(baseUrl)) {
    throw new PigeonholeError(
      `Invalid baseUrl ${JSON.stringify(baseUrl)}: expected an absolute URL such as ${service.defaultBaseUrl}.`,
    );
  }

  // Middleware and a per-call fetch must see real Requests: once middleware is registered, and during a call that
  // brings its own.
  let middlewareRegistered = false;
  let callMiddleware = false;
  const http = createClient<Paths>({
    baseUrl,
    // defaultHeaders come second, so they can replace the Authorization header or remove it with null.
    headers: Object.fromEntries(mergeHeaders({ Authorization: `Bearer ${apiKey}` }, options.defaultHeaders)),
    // Built once here rather than by openapi-fetch on every call.
    querySerializer: createQuerySerializer(),
    // With the runtime's fetch, calls skip building a Request that fetch would only copy (see PendingRequest).
    ...(options.fetch === undefined
      ? { Request: pendingRequestConstructor(() => middlewareRegistered || callMiddleware) }
      : {}),
    fetch: createTransport({
      fetch: options.fetch,
      timeout: options.timeout,
      maxRetries: options.maxRetries,
      idempotencyHeader: service.idempotencyHeader,
      logger: options.logger,
      logLevel: options.logLevel,
    }),
  });
  const loose = http as unknown as Record<Uppercase<ClientMethod>, LooseMethod>;
  const toError = service.errors.fromResponse;

  /**
   * A call with its own middleware or its own `fetch` gets a real Request. openapi-fetch builds the request
   * synchronously when called, so the flag covers exactly this call's request.
   */
  function send(method: Uppercase<ClientMethod>, path: string, init?: LooseInit) {
    if (!(init?.middleware?.length || init?.fetch)) {
      return loose[method](path, init);
    }
    callMiddleware = true;
    try {
      return loose[method](path, init);
    } finally {
      callMiddleware = false;
    }
  }

  // The result style is openapi-fetch's own methods (GET ... DELETE, request), passed through unchanged.
  const client: Record<string, unknown> = {
    request: (method: ClientMethod, path: string, init?: LooseInit) =>
      send(method.toUpperCase() as Uppercase<ClientMethod>, path, init),
    use(...middleware: Middleware[]) {
      middlewareRegistered = true;
      http.use(...middleware);
    },
    eject: http.eject,
    withOptions: (overrides: ClientOptions) =>
      createApiClient<Paths, TPage, Options>(service, { ...options, ...overrides }),
    paginate(path: string, init: LooseInit = {}) {
      const { param, next } = service.pageCursor;
      const query = init.params?.query ?? {};
      return paginate({
        start: query[param] as string | number | undefined,
        fetchPage: (cursor) =>
          unwrap(
            send("GET", path, {
              ...init,
              params: { ...init.params, query: cursor === undefined ? query : { ...query, [param]: cursor } },
            }),
            toError,
          ),
        items: pageItems,
        next: next as (page: unknown) => string | number | null,
      });
    },
  };
  for (const [name, method] of Object.entries(METHODS)) {
    client[method] = (path: string, init?: LooseInit) => send(method, path, init);
    client[name] = (path: string, init?: LooseInit) => unwrap(send(method, path, init), toError);
  }
  return client as ApiClient<Paths, TPage, Options>;
}

function isAbsoluteUrl(url: string): boolean {
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}
