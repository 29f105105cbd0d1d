import createClient, {
  createQuerySerializer,
  type FetchResponse,
  type HeadersOptions,
  type Middleware,
  mergeHeaders,
} from "openapi-fetch";
import type { MediaType } from "openapi-typescript-helpers";
import { type DownloadParseAs, readDownload } from "./download.js";
import { readEnv } from "./env.js";
import { PigeonholeError } from "./errors.js";
import type { Hooks } from "./hooks.js";
import type { PageCursor } from "./list-pages.js";
import { pageItems } from "./list-pages.js";
import { paginate } from "./pagination.js";
import type { ApiCalls, CallTable, ClientMethod, OperationKey } from "./path-types.js";
import { createTransport, type Fetch, type RequestOptions, type TransportOptions } from "./transport.js";
import { type ErrorFromResponse, unwrap } from "./unwrap.js";

/** Options of a client built with `createApiClient`; every one has a default. */
export interface ClientOptions extends Hooks {
  /** Sent as `Authorization: Bearer <apiKey>`. Defaults to the service's API key variable (`apiKeyEnv`). */
  apiKey?: string | undefined;
  /** The service's origin, without the version prefix. Defaults to the service's `baseUrlEnv`, then `defaultBaseUrl`. */
  baseUrl?: string | undefined;
  /**
   * Replaces `globalThis.fetch`, e.g. to add a proxy or instrumentation; see `Fetch` for what it receives. A `fetch`
   * given to one call is used the same way: that call keeps its timeout, retries and idempotency key.
   */
  fetch?: Fetch | undefined;
  /** Sent with every request; a `null` value removes a header the client would send. */
  defaultHeaders?: HeadersOptions | undefined;
  /** Milliseconds to wait for the response headers, per attempt. Default 60 000. */
  timeout?: number | undefined;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number | undefined;
  /**
   * Logs the client's calls: pass `createLogger()` (optionally with a level and a sink). Without it the client logs
   * nothing. Credentials are always redacted.
   */
  logger?: Hooks | undefined;
}

/**
 * How one service differs: its environment, its address, its paging style, its idempotency header, the operations
 * that need no key and its errors.
 */
export interface ServiceDefinition<TPage> {
  /** Name of the factory function, quoted in configuration errors. */
  factory: string;
  apiKeyEnv: string;
  baseUrlEnv: string;
  defaultBaseUrl: string;
  /** The header the service deduplicates writes by, if it has one. */
  idempotencyHeader?: string;
  /**
   * The writes that take `idempotencyHeader`, such as `"POST /v1/things"` (the spec's path); any other write is sent
   * without it, and retried only where that cannot apply it twice. Without this set every write takes the header.
   */
  idempotentOperations?: ReadonlySet<OperationKey>;
  /**
   * The operations that need no API key (a spec's `security: []`). When the service has some, a client can be made
   * without a key to call them; any other call of that client then rejects, saying the key is missing.
   */
  publicOperations?: ReadonlySet<OperationKey>;
  /**
   * The operations whose success is not JSON but bytes (a spec's `format: binary`): a call reads the body as a
   * `Blob` unless its `parseAs` names another way, and an empty body as an empty one of that kind.
   */
  downloads?: ReadonlySet<OperationKey>;
  pageCursor: PageCursor<TPage>;
  /** The service's error classes (from `defineServiceErrors`); the throwing style throws what `fromResponse` builds. */
  errors: { fromResponse: ErrorFromResponse };
}

export type { CallTable, CallTypes, ClientMethod, DataMethod, ResultMethod } from "./path-types.js";

/**
 * A typed client of one API: both call styles for every operation of its call table (`calls`, generated beside the
 * spec's `paths`), plus auto-pagination.
 */
export interface ApiClient<Calls extends CallTable, TPage, Options = RequestOptions>
  extends ApiCalls<Calls, TPage, Options> {
  /** openapi-fetch middleware, applied to calls of both styles. */
  use(...middleware: Middleware[]): void;
  eject(...middleware: Middleware[]): void;
  /**
   * A new client with these options changed and the rest kept, hooks included, starting with the middleware this
   * one has now. Later `use()` and `eject()` on either client leave the other as it is.
   */
  withOptions(options: ClientOptions): ApiClient<Calls, TPage, Options>;
}

const METHODS = { get: "GET", put: "PUT", post: "POST", patch: "PATCH", delete: "DELETE" } as const;

/** Operations as a set of paths per method, so that a call looks itself up without building its key. */
function pathsByMethod(operations: ReadonlySet<OperationKey> | undefined): Map<string, Set<string>> | undefined {
  if (operations === undefined || operations.size === 0) {
    return undefined;
  }
  const byMethod = new Map<string, Set<string>>();
  for (const operation of operations) {
    const space = operation.indexOf(" ");
    const method = operation.slice(0, space);
    byMethod.set(method, (byMethod.get(method) ?? new Set()).add(operation.slice(space + 1)));
  }
  return byMethod;
}

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
export function createApiClient<Calls extends CallTable, TPage, Options = RequestOptions>(
  service: ServiceDefinition<TPage>,
  options: ClientOptions = {},
): ApiClient<Calls, TPage, Options> {
  const key = options.apiKey ?? readEnv(service.apiKeyEnv);
  const apiKey = typeof key === "string" && key.trim() !== "" ? key : undefined;
  const missingKey = (operation?: OperationKey) => {
    const what = operation === undefined ? "Missing API key" : `Missing API key for ${operation}`;
    return new PigeonholeError(
      `${what}: pass { apiKey } to ${service.factory}() or set the ${service.apiKeyEnv} environment variable.`,
    );
  };
  // A service whose every operation needs a key is told at once; one with public operations when a call needs it.
  if (apiKey === undefined && !service.publicOperations?.size) {
    throw missingKey();
  }
  const baseUrl = options.baseUrl ?? readEnv(service.baseUrlEnv) ?? service.defaultBaseUrl;
  if (!URL.canParse(baseUrl)) {
    throw new PigeonholeError(
      `Invalid baseUrl ${JSON.stringify(baseUrl)}: expected an absolute URL such as ${service.defaultBaseUrl}.`,
    );
  }

  // The client's options are the transport's (fetch, timeout, retries, logging, hooks) plus a few it ignores.
  const { idempotencyHeader, idempotentOperations } = service;
  const keyedOptions: TransportOptions = { ...options, idempotencyHeader };
  // Writes that do not take the idempotency header go through a transport without it: no key, no unsafe retries.
  const unkeyedOptions: TransportOptions = { ...options, idempotencyHeader: undefined };
  const unkeyedTransport =
    idempotencyHeader === undefined || idempotentOperations === undefined ? undefined : createTransport(unkeyedOptions);
  // Typed by the call table rather than by openapi-fetch: the calls below go through `loose`.
  const http = createClient({
    baseUrl,
    // defaultHeaders come second, so they can replace the Authorization header or remove it with null.
    headers: Object.fromEntries(
      mergeHeaders(apiKey === undefined ? {} : { Authorization: `Bearer ${apiKey}` }, options.defaultHeaders),
    ),
    // Built once here rather than by openapi-fetch on every call.
    querySerializer: createQuerySerializer(),
    fetch: createTransport(keyedOptions),
  });
  const loose = http as unknown as Record<Uppercase<ClientMethod>, LooseMethod>;
  const downloads = pathsByMethod(service.downloads);
  const toError = service.errors.fromResponse;
  // What `use()` added, in order, so that `withOptions()` can hand it on.
  const middlewares = new Set<Middleware>();

  /**
   * Sends one call through the transport its operation needs. A per-call `fetch` replaces the transport in
   * openapi-fetch, so it is wrapped in one of its own: the call keeps its timeouts, retries and idempotency key.
   */
  function send(method: Uppercase<ClientMethod>, path: string, init?: LooseInit) {
    if (downloads?.get(method)?.has(path)) {
      // openapi-fetch parses JSON unless told otherwise; a download's bytes are read as the call asks.
      const parseAs = (init?.parseAs ?? "blob") as DownloadParseAs;
      return readDownload(dispatch(method, path, { ...init, parseAs }), parseAs);
    }
    return dispatch(method, path, init);
  }

  function dispatch(method: Uppercase<ClientMethod>, path: string, init?: LooseInit) {
    // Named only where a set is consulted, so that the common call builds no string.
    const operation = (): OperationKey => `${method} ${path}`;
    if (apiKey === undefined && !service.publicOperations?.has(operation())) {
      return Promise.reject(missingKey(operation()));
    }
    const unkeyed = unkeyedTransport !== undefined && method !== "GET" && !idempotentOperations?.has(operation());
    if (unkeyed && init?.idempotencyKey !== undefined) {
      // Sent anyway, the key would be ignored, and a retry could apply the write twice.
      return Promise.reject(
        new PigeonholeError(`${operation()} takes no ${idempotencyHeader}: remove idempotencyKey from this call.`),
      );
    }
    const fetch = init?.fetch as Fetch | undefined;
    if (fetch) {
      const own = createTransport({ ...(unkeyed ? unkeyedOptions : keyedOptions), fetch });
      return loose[method](path, { ...init, fetch: own });
    }
    return loose[method](path, unkeyed ? { ...init, fetch: unkeyedTransport } : init);
  }

  // The result style is openapi-fetch's own methods (GET ... DELETE, request), with only a per-call fetch wrapped.
  const client: Record<string, unknown> = {
    request: (method: ClientMethod, path: string, init?: LooseInit) =>
      send(method.toUpperCase() as Uppercase<ClientMethod>, path, init),
    use(...middleware: Middleware[]) {
      http.use(...middleware);
      for (const m of middleware) {
        middlewares.add(m);
      }
    },
    eject(...middleware: Middleware[]) {
      http.eject(...middleware);
      for (const m of middleware) {
        middlewares.delete(m);
      }
    },
    withOptions(overrides: ClientOptions) {
      const derived = createApiClient<Calls, TPage, Options>(service, { ...options, ...overrides });
      derived.use(...middlewares);
      return derived;
    },
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
  return client as unknown as ApiClient<Calls, TPage, Options>;
}
