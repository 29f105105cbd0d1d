// The types of a client's calls, derived from an API's generated `paths`. Each call of a consumer's program is
// checked with these, so they are built to be cheap: a per-method table of operations, computed once per API, and
// per-operation types that read the operation's own fields instead of walking every schema behind it. (openapi-fetch's
// own types walk each body to strip readOnly/writeOnly markers; the generated types here carry none, so bodies are
// taken as the spec gives them.)
import type {
  BodySerializer,
  ClientOptions as FetchClientOptions,
  HeadersOptions,
  Middleware,
  ParseAs,
  ParseAsResponse,
  PathSerializer,
  QuerySerializer,
  QuerySerializerOptions,
} from "openapi-fetch";
import type { ErrorStatus, HttpMethod, OkStatus } from "openapi-typescript-helpers";
import type { DownloadParseAs } from "./download.js";
import type { Paginator } from "./pagination.js";

/** The HTTP methods the clients offer: those an API spec of this project can use. */
export type ClientMethod = "get" | "put" | "post" | "patch" | "delete";

/** The operations of one HTTP method, by path; paths without that method are left out. */
export type Operations<Paths, M extends HttpMethod> = {
  [P in keyof Paths as Paths[P] extends { [K in M]: object } ? P : never]: Paths[P][M & keyof Paths[P]];
};

/** One operation of an API, named by its method and its path as the spec writes it: `"POST /v1/things/{id}"`. */
export type OperationKey = `${Uppercase<ClientMethod>} ${string}`;

/**
 * The operations of an API that declare the header parameter `Header`, as `OperationKey`s: for a service definition's
 * `idempotentOperations`, typed so that a list of them can be checked against the spec.
 */
export type OperationsWithHeader<Paths, Header extends string> = {
  [M in ClientMethod]: {
    [P in keyof Operations<Paths, M> & string]: Operations<Paths, M>[P] extends { parameters: { header?: infer H } }
      ? [NonNullable<H>] extends [never]
        ? never
        : Header extends keyof NonNullable<H>
          ? `${Uppercase<M>} ${P}`
          : never
      : never;
  }[keyof Operations<Paths, M> & string];
}[ClientMethod];

/**
 * The operations of an API whose success answers a body that is not JSON (a file, a message's source), as
 * `OperationKey`s: for a service definition's `downloads`, typed so that a list of them can be checked against the spec.
 */
export type DownloadOperations<Paths> = {
  [M in ClientMethod]: {
    [P in keyof Operations<Paths, M> & string]: IsDownload<Operations<Paths, M>[P]> extends true
      ? `${Uppercase<M>} ${P}`
      : never;
  }[keyof Operations<Paths, M> & string];
}[ClientMethod];

/** The body of a response or request-body object in the media types `Media`; undefined when it has no content. */
type ContentOf<T, Media> = T extends { content: infer Content } ? Content[Extract<keyof Content, Media>] : undefined;

type AnyMedia = `${string}/${string}`;
type JsonMedia = `${string}/json`;

/** The JSON body of a successful response (undefined for a 204), as the spec names it. */
export type SuccessData<Operation> = Operation extends { responses: infer R }
  ? ContentOf<R[Extract<keyof R, OkStatus>], JsonMedia>
  : never;

/** The media types of a successful response's body; never when it has none. */
type SuccessMedia<Operation> = Operation extends { responses: infer R }
  ? R[Extract<keyof R, OkStatus>] extends { content: infer Content }
    ? keyof Content
    : never
  : never;

/** Whether an operation's success has a body and none of it is JSON: a download. */
type IsDownload<Operation> = [SuccessMedia<Operation>] extends [never]
  ? false
  : [Extract<SuccessMedia<Operation>, JsonMedia>] extends [never]
    ? true
    : false;

/** A download's body, read as `As`; never null, an empty body included. */
export type DownloadData<As extends ParseAs> = {
  json: never;
  blob: Awaited<ReturnType<Response["blob"]>>;
  arrayBuffer: Awaited<ReturnType<Response["arrayBuffer"]>>;
  text: string;
  stream: NonNullable<Response["body"]>;
}[As];

/** The `parseAs` of a call that names none: a `Blob` for a download, JSON for any other operation. */
export type DefaultParseAs<Operation> = IsDownload<Operation> extends true ? "blob" : "json";

/** The `parseAs` values the throwing style takes: a download's ways to read bytes, or JSON for any other operation. */
type DataParseAs<Operation> = IsDownload<Operation> extends true ? DownloadParseAs : "json";

/** The `parseAs` values the result style takes: any, as in openapi-fetch, except JSON for a download. */
type ResultParseAs<Operation> = IsDownload<Operation> extends true ? DownloadParseAs : ParseAs;

/** What the throwing style resolves to: the JSON body, or a download's body read as `As`. */
export type CallData<Operation, As extends ParseAs = DefaultParseAs<Operation>> = As extends DownloadParseAs
  ? DownloadData<As>
  : SuccessData<Operation>;

/** The result style's success and error bodies, in any media type, as openapi-fetch reads them. */
type SuccessBody<Operation> = Operation extends { responses: infer R }
  ? ContentOf<R[Extract<keyof R, OkStatus>], AnyMedia>
  : never;
type ErrorBody<Operation> = Operation extends { responses: infer R }
  ? ContentOf<R[Extract<keyof R, ErrorStatus>], AnyMedia>
  : never;

/** The empty object type: `Empty extends T` holds when `T` has no required key, and is the cheapest test of that. */
// biome-ignore lint/complexity/noBannedTypes: the empty object type is what this names.
type Empty = {};

/** `params`, required when a path, query or header parameter is. */
type ParamsOf<Operation> = Operation extends { parameters: infer Params }
  ? Empty extends Params
    ? { params?: Params }
    : { params: Params }
  : { params?: { query?: Record<string, unknown> } };

/** `body`, required or optional as the spec says, and refused where the operation takes none. */
type BodyOf<Operation> = Operation extends { requestBody: infer Body }
  ? { body: ContentOf<Body, AnyMedia> }
  : Operation extends { requestBody?: infer Body }
    ? [NonNullable<Body>] extends [never]
      ? { body?: never }
      : { body?: ContentOf<NonNullable<Body>, AnyMedia> }
    : { body?: never };

/** What the operation itself asks of a call. */
type OperationInit<Operation> = ParamsOf<Operation> &
  BodyOf<Operation> & {
    querySerializer?: QuerySerializer<Operation> | QuerySerializerOptions;
    bodySerializer?: BodySerializer<Operation>;
  };

/** openapi-fetch's per-call options that do not depend on the operation: fetch's own, headers, a fetch, middleware. */
export interface FetchCallOptions extends Omit<RequestInit, "body" | "headers"> {
  baseUrl?: string;
  pathSerializer?: PathSerializer;
  fetch?: FetchClientOptions["fetch"];
  headers?: HeadersOptions;
  middleware?: Middleware[];
}

/** The init argument, optional when the operation requires neither params nor a body. */
type InitArgs<Operation, Init> = Empty extends ParamsOf<Operation> & BodyOf<Operation> ? [Init?] : [Init];

/**
 * The throwing style's init of an operation: params, body, openapi-fetch's and the client's per-call options.
 * Unknown keys are errors, so typos are caught. Bodies are parsed as JSON; a download's is read as `parseAs` says
 * (a `Blob` by default).
 */
export type CallInit<Operation, Options, As extends ParseAs = "json"> = OperationInit<Operation> &
  FetchCallOptions &
  Options & { parseAs?: As };

/** The result style's init: the same, with any `parseAs` and, as in openapi-fetch, extra keys allowed. */
type ResultInit<Operation, Options, As extends ParseAs> = OperationInit<Operation> &
  FetchCallOptions &
  Options & { parseAs?: As; [key: string]: unknown };

/** The result style's `data`: a download's body read as `As`, or openapi-fetch's reading of any other body. */
type ResultData<Operation, As extends ParseAs> =
  IsDownload<Operation> extends true ? DownloadData<As> : ParseAsResponse<SuccessBody<Operation>, { parseAs: As }>;

/** openapi-fetch's `{ data, error, response }`: exactly one of data and error is set. */
export type CallResult<Operation, As extends ParseAs = DefaultParseAs<Operation>> =
  | { data: ResultData<Operation, As>; error?: never; response: Response }
  | { data?: never; error: ErrorBody<Operation>; response: Response };

/** Result style: resolves to `{ data, error, response }` and never throws for HTTP errors. */
export type ResultMethod<Paths, M extends HttpMethod, Options> = <
  P extends keyof Operations<Paths, M>,
  As extends ResultParseAs<Operations<Paths, M>[P]> = DefaultParseAs<Operations<Paths, M>[P]>,
>(
  path: P,
  ...init: InitArgs<Operations<Paths, M>[P], ResultInit<Operations<Paths, M>[P], Options, As>>
) => Promise<CallResult<Operations<Paths, M>[P], As>>;

/**
 * Throwing style: resolves to the JSON body of the success response (a download's body as a `Blob`, or as
 * `parseAs` says), or throws the service's `APIError` subclass for the answer.
 */
export type DataMethod<Paths, M extends HttpMethod, Options> = <
  P extends keyof Operations<Paths, M>,
  As extends DataParseAs<Operations<Paths, M>[P]> = DefaultParseAs<Operations<Paths, M>[P]>,
>(
  path: P,
  ...init: InitArgs<Operations<Paths, M>[P], CallInit<Operations<Paths, M>[P], Options, As>>
) => Promise<CallData<Operations<Paths, M>[P], As>>;

/** Keys of `T` whose values are arrays. */
type ArrayKeys<T> = { [K in keyof T]-?: T[K] extends readonly unknown[] ? K : never }[keyof T];

/** The element type of the one array property of a list page. */
export type ItemOf<Page> = {
  [K in ArrayKeys<Page>]: Page[K] extends readonly (infer Item)[] ? Item : never;
}[ArrayKeys<Page>];

/** Whether `K` is exactly one key: for each member, removing it leaves nothing. */
type IsOneKey<K> = [K] extends [never]
  ? false
  : { [Key in K & PropertyKey]: [Exclude<K, Key>] extends [never] ? true : false }[K & PropertyKey];

/**
 * GET paths whose response is a list page of the service's paging style (`TPage`) holding exactly one array of
 * items; `paginate` accepts only these, so passing any other path is a type error.
 */
export type ListPath<Paths, TPage> = {
  [P in keyof Operations<Paths, "get">]: SuccessData<Operations<Paths, "get">[P]> extends TPage
    ? IsOneKey<ArrayKeys<SuccessData<Operations<Paths, "get">[P]>>> extends true
      ? P
      : never
    : never;
}[keyof Operations<Paths, "get">];

/** Every call of a typed client of one API: both styles for every operation of its spec, plus auto-pagination. */
export interface ApiCalls<Paths, TPage, Options> {
  GET: ResultMethod<Paths, "get", Options>;
  PUT: ResultMethod<Paths, "put", Options>;
  POST: ResultMethod<Paths, "post", Options>;
  PATCH: ResultMethod<Paths, "patch", Options>;
  DELETE: ResultMethod<Paths, "delete", Options>;
  /** Result style with the method as an argument: `client.request("get", path, init)`. */
  request<
    M extends ClientMethod,
    P extends keyof Operations<Paths, M>,
    As extends ResultParseAs<Operations<Paths, M>[P]> = DefaultParseAs<Operations<Paths, M>[P]>,
  >(
    method: M,
    path: P,
    ...init: InitArgs<Operations<Paths, M>[P], ResultInit<Operations<Paths, M>[P], Options, As>>
  ): Promise<CallResult<Operations<Paths, M>[P], As>>;
  get: DataMethod<Paths, "get", Options>;
  put: DataMethod<Paths, "put", Options>;
  post: DataMethod<Paths, "post", Options>;
  patch: DataMethod<Paths, "patch", Options>;
  delete: DataMethod<Paths, "delete", Options>;
  /**
   * Every item of a list path across all its pages, fetched page by page as you iterate with `for await`;
   * `.pages()` yields whole pages and `.firstPage()` fetches one. Only list paths are accepted.
   */
  paginate<P extends ListPath<Paths, TPage>>(
    path: P,
    ...init: InitArgs<Operations<Paths, "get">[P], CallInit<Operations<Paths, "get">[P], Options>>
  ): Paginator<SuccessData<Operations<Paths, "get">[P]>, ItemOf<SuccessData<Operations<Paths, "get">[P]>>>;
}
