/**
 * Types that tie handlers to the operations generated from a spec (`operations` of `@pigeonhole/*-types`): the
 * inputs a handler receives and the answers it may give follow the spec, so a spec change is a type error here.
 */

type JsonContent<T> = T extends { content: { "application/json": infer Body } } ? Body : undefined;

type SuccessStatus = 200 | 201 | 202 | 204;

/**
 * A success answer that is bytes, not JSON (a download): `contentType` is sent as `Content-Type`, beside any
 * `headers` the operation documents.
 */
export interface BinaryReply<Status> {
  status: Status;
  body: Uint8Array;
  contentType: string;
  headers?: Record<string, string>;
}

type SuccessReply<Status, Response> = Response extends { content: infer Content extends object }
  ?
      | (Content extends { "application/json": infer Body } ? { status: Status; body: Body } : never)
      // A download may also document a JSON alternative, which the request asks for with `Accept`.
      | (Exclude<keyof Content, "application/json"> extends never ? never : BinaryReply<Status>)
  : { status: Status; body: JsonContent<Response> };

/**
 * The answers an operation documents for success: `{status, body}` for each 2xx status, or a {@link BinaryReply}
 * where the spec documents content other than JSON.
 */
export type Reply<Op> = Op extends { responses: infer Responses }
  ? {
      [Status in keyof Responses & SuccessStatus]: SuccessReply<Status, Responses[Status]>;
    }[keyof Responses & SuccessStatus]
  : never;

type Params<Op, Where extends "path" | "query" | "header"> = Op extends { parameters: infer P }
  ? Where extends keyof P
    ? [NonNullable<P[Where]>] extends [never]
      ? Record<string, never>
      : NonNullable<P[Where]>
    : Record<string, never>
  : Record<string, never>;

type RequestBody<Op> = Op extends { requestBody: infer Body }
  ? JsonContent<Body>
  : Op extends { requestBody?: infer Body }
    ? JsonContent<NonNullable<Body>> | undefined
    : undefined;

/** A validated request of an operation. Query parameters with a spec default are always present at run time. */
export interface OperationInput<Op> {
  path: Params<Op, "path">;
  query: Params<Op, "query">;
  headers: Params<Op, "header">;
  body: RequestBody<Op>;
}

/** The names of the operations reachable under `paths` (webhook deliveries the service sends are left out). */
export type PathOperationId<Paths, Operations> = {
  [Id in keyof Operations]: Operations[Id] extends Paths[keyof Paths][keyof Paths[keyof Paths]] ? Id : never;
}[keyof Operations];

/** What a handler knows of its request besides the input: who calls, and the id the answer carries. */
export interface RequestContext<Caller> {
  /** Who sends the request; null on an operation anyone may call. */
  caller: Caller;
  requestId: string;
  /** The address the request came from (the peer's: a proxy in front answers for its clients). */
  clientAddress: string;
  /** Aborts when the client goes away before the answer: a long wait stops then. */
  signal?: AbortSignal;
  /** A header of the request, for an operation that answers bytes or, when asked (`Accept`), JSON. */
  header?(name: string): string | undefined;
  /** The address the request was sent to, for answers that link back to the server. */
  url?: string;
  /**
   * The origin (`https://mail.example.com`) the client reached the server at: the request's own, or the one a trusted
   * proxy in front names with `X-Forwarded-Proto` and `X-Forwarded-Host`. Links back to the server use it.
   */
  origin?: string;
}

/** Typed handlers for a set of operations: each gets its validated input and answers one of its documented replies. */
export type OperationHandlers<Operations, Ids extends keyof Operations, Context> = {
  [Id in Ids]: (input: OperationInput<Operations[Id]>, context: Context) => Promise<Reply<Operations[Id]>>;
};

/**
 * A query parameter the spec gives a default, which validation has filled in. Its absence is a bug in the spec or
 * the validator, not a client error.
 */
export function withSpecDefault<T>(value: T | undefined, name: string): T {
  if (value === undefined) {
    throw new Error(`The spec gives ${name} no default.`);
  }
  return value;
}
