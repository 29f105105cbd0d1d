// The types of a client's calls. Each call of a consumer's program is checked with these, so they are built to be
// cheap: they read an API's call table (`calls`, generated beside its `paths` from the same spec), where every
// operation's init, success and error types are already spelled out, instead of deriving them from `paths` with
// conditional types on every call. That lookup is most of what type-checking a call costs.
import type {
  BodySerializer,
  ClientOptions as FetchClientOptions,
  HeadersOptions,
  Middleware,
  ParseAs,
  PathSerializer,
  QuerySerializer,
  QuerySerializerOptions,
} from "openapi-fetch";
import type { DownloadParseAs } from "./download.js";
import type { Paginator } from "./pagination.js";

/** The HTTP methods the clients offer: those an API spec of this project can use. */
export type ClientMethod = "get" | "put" | "post" | "patch" | "delete";

/** One operation's entry in a call table. */
export interface CallTypes {
  /** The operation's type in openapi-typescript's `operations`: what its serializers are typed by. */
  operation: unknown;
  /** `params` and `body`, each required or optional as the spec says (a `body?: never` when it takes none). */
  init: object;
  /** Whether the init argument is required: a parameter or the body is. */
  required: boolean;
  /** The JSON body of a success (undefined for no content). */
  data: unknown;
  /** The bodies of the error responses, as openapi-fetch's `error`. */
  error: unknown;
  /** The element type of a list answer, whose `data` holds exactly one array; never for any other operation. */
  item: unknown;
  /** Whether the success is bytes rather than JSON (a file, a message's source). */
  download: boolean;
}

/**
 * An API's call table: its operations by method, then by path as the spec writes it. The types packages generate it
 * (`calls`) with `openapi-call-table`.
 */
export type CallTable = { [M in ClientMethod]: { [path: string]: CallTypes } };

/** One operation of an API, named by its method and its path as the spec writes it: `"POST /v1/things/{id}"`. */
export type OperationKey = `${Uppercase<ClientMethod>} ${string}`;

/**
 * The operations of an API whose success answers a body that is not JSON (a file, a message's source), as
 * `OperationKey`s: for a service definition's `downloads`, typed so that a list of them can be checked against the spec.
 */
export type DownloadOperations<Calls extends CallTable> = {
  [M in ClientMethod]: {
    [P in keyof Calls[M] & string]: Calls[M][P]["download"] extends true ? `${Uppercase<M>} ${P}` : never;
  }[keyof Calls[M] & string];
}[ClientMethod];

/** A body read as each `parseAs` says, as `Response`'s own readers answer it; never null, an empty body included. */
interface ReadBodies {
  blob: Blob;
  arrayBuffer: ArrayBuffer;
  text: string;
  stream: NonNullable<Response["body"]>;
}

/** A download's body, read as `As`. */
export type DownloadData<As extends ParseAs> = (ReadBodies & { json: never })[As];

/** The `parseAs` of a call that names none: a `Blob` for a download, JSON for any other operation. */
export type DefaultParseAs<Call extends CallTypes> = Call["download"] extends true ? "blob" : "json";

/** The `parseAs` values the throwing style takes: a download's ways to read bytes, or JSON for any other operation. */
type DataParseAs<Call extends CallTypes> = Call["download"] extends true ? DownloadParseAs : "json";

/** The `parseAs` values the result style takes: any, as in openapi-fetch, except JSON for a download. */
type ResultParseAs<Call extends CallTypes> = Call["download"] extends true ? DownloadParseAs : ParseAs;

/** What a call resolves to: the JSON body, or the body read as `As` (a download's, or any other in the result style). */
export type CallData<Call extends CallTypes, As extends ParseAs = DefaultParseAs<Call>> = (ReadBodies & {
  json: Call["data"];
})[As];

/** openapi-fetch's per-call options that do not depend on the operation: fetch's own, headers, a fetch, middleware. */
export interface FetchCallOptions extends Omit<RequestInit, "body" | "headers"> {
  baseUrl?: string;
  pathSerializer?: PathSerializer;
  fetch?: FetchClientOptions["fetch"];
  headers?: HeadersOptions;
  middleware?: Middleware[];
}

/** The serializers openapi-fetch takes per call, typed by the operation. */
interface SerializerOptions<Operation> {
  querySerializer?: QuerySerializer<Operation> | QuerySerializerOptions;
  bodySerializer?: BodySerializer<Operation>;
}

/** The init argument, optional when the operation requires neither params nor a body. */
type InitArgs<Call extends CallTypes, Init> = Call["required"] extends true ? [init: Init] : [init?: Init];

/**
 * The throwing style's init of an operation: params, body, openapi-fetch's and the client's per-call options.
 * Unknown keys are errors, so typos are caught. Bodies are parsed as JSON; a download's is read as `parseAs` says
 * (a `Blob` by default).
 */
export type CallInit<Call extends CallTypes, Options, As extends ParseAs = "json"> = Call["init"] &
  SerializerOptions<Call["operation"]> &
  FetchCallOptions &
  Options & { parseAs?: As };

/** The result style's init: the same, with any `parseAs` and, as in openapi-fetch, extra keys allowed. */
type ResultInit<Call extends CallTypes, Options, As extends ParseAs> = CallInit<Call, Options, As> & {
  [key: string]: unknown;
};

/** openapi-fetch's `{ data, error, response }`: exactly one of data and error is set. */
export type CallResult<Call extends CallTypes, As extends ParseAs = DefaultParseAs<Call>> =
  | { data: CallData<Call, As>; error?: never; response: Response }
  | { data?: never; error: Call["error"]; response: Response };

/** Result style: resolves to `{ data, error, response }` and never throws for HTTP errors. */
export type ResultMethod<Calls extends CallTable, M extends ClientMethod, Options> = <
  P extends keyof Calls[M],
  As extends ResultParseAs<Calls[M][P]> = DefaultParseAs<Calls[M][P]>,
>(
  path: P,
  ...init: InitArgs<Calls[M][P], ResultInit<Calls[M][P], Options, As>>
) => Promise<CallResult<Calls[M][P], As>>;

/**
 * Throwing style: resolves to the JSON body of the success response (a download's body as a `Blob`, or as
 * `parseAs` says), or throws the service's `APIError` subclass for the answer.
 */
export type DataMethod<Calls extends CallTable, M extends ClientMethod, Options> = <
  P extends keyof Calls[M],
  As extends DataParseAs<Calls[M][P]> = DefaultParseAs<Calls[M][P]>,
>(
  path: P,
  ...init: InitArgs<Calls[M][P], CallInit<Calls[M][P], Options, As>>
) => Promise<CallData<Calls[M][P], As>>;

/**
 * GET paths whose response is a list page of the service's paging style (`TPage`) holding exactly one array of
 * items; `paginate` accepts only these, so passing any other path is a type error.
 */
export type ListPath<Calls extends CallTable, TPage> = {
  [P in keyof Calls["get"]]: [Calls["get"][P]["item"]] extends [never]
    ? never
    : Calls["get"][P]["data"] extends TPage
      ? P
      : never;
}[keyof Calls["get"]];

/** Every call of a typed client of one API: both styles for every operation of its call table, plus auto-pagination. */
export interface ApiCalls<Calls extends CallTable, TPage, Options> {
  GET: ResultMethod<Calls, "get", Options>;
  PUT: ResultMethod<Calls, "put", Options>;
  POST: ResultMethod<Calls, "post", Options>;
  PATCH: ResultMethod<Calls, "patch", Options>;
  DELETE: ResultMethod<Calls, "delete", Options>;
  /** Result style with the method as an argument: `client.request("get", path, init)`. */
  request<
    M extends ClientMethod,
    P extends keyof Calls[M],
    As extends ResultParseAs<Calls[M][P]> = DefaultParseAs<Calls[M][P]>,
  >(
    method: M,
    path: P,
    ...init: InitArgs<Calls[M][P], ResultInit<Calls[M][P], Options, As>>
  ): Promise<CallResult<Calls[M][P], As>>;
  get: DataMethod<Calls, "get", Options>;
  put: DataMethod<Calls, "put", Options>;
  post: DataMethod<Calls, "post", Options>;
  patch: DataMethod<Calls, "patch", Options>;
  delete: DataMethod<Calls, "delete", Options>;
  /**
   * Every item of a list path across all its pages, fetched page by page as you iterate with `for await`;
   * `.pages()` yields whole pages and `.firstPage()` fetches one. Only list paths are accepted.
   */
  paginate<P extends ListPath<Calls, TPage>>(
    path: P,
    ...init: InitArgs<Calls["get"][P], CallInit<Calls["get"][P], Options>>
  ): Paginator<Calls["get"][P]["data"], Calls["get"][P]["item"]>;
}
