// What is derived from openapi-typescript's `paths` with conditional types: the operations that take a given header,
// and the call table of an API, for a client whose types package ships no generated `calls`. That table is the
// generated one at a price: every consumer's type-check derives it again, where a generated one is read as written.
// The clients test that the tables they ship equal it.
import type { ErrorStatus, OkStatus } from "openapi-typescript-helpers";
import type { CallTable, CallTypes, ClientMethod } from "./path-types.js";

/** The operations of one HTTP method, by path; paths without that method are left out. */
type OperationsOf<Paths, M extends ClientMethod> = {
  [P in keyof Paths as Paths[P] extends { [K in M]: object } ? P : never]: Paths[P][M & keyof Paths[P]];
};

/**
 * The operations of an API that declare the header parameter `Header`, as `OperationKey`s: for a service definition's
 * `idempotentOperations`, typed so that a list of them can be checked against the spec.
 */
export type OperationsWithHeader<Paths, Header extends string> = {
  [M in ClientMethod]: {
    [P in keyof OperationsOf<Paths, M> & string]: OperationsOf<Paths, M>[P] extends {
      parameters: { header?: infer H };
    }
      ? [NonNullable<H>] extends [never]
        ? never
        : Header extends keyof NonNullable<H>
          ? `${Uppercase<M>} ${P}`
          : never
      : never;
  }[keyof OperationsOf<Paths, M> & string];
}[ClientMethod];

type AnyMedia = `${string}/${string}`;
type JsonMedia = `${string}/json`;

/** The body of a response or request-body object in the media types `Media`; undefined when it has no content. */
type ContentOf<T, Media> = T extends { content: infer Content } ? Content[Extract<keyof Content, Media>] : undefined;

type Responses<Operation, Status> = Operation extends { responses: infer R } ? R[Extract<keyof R, Status>] : never;

/** The media types of a successful response's body; never when it has none. */
type SuccessMedia<Operation> =
  Responses<Operation, OkStatus> extends { content: infer Content } ? keyof Content : never;

/**
 * Whether an operation's success has a body that is not JSON: a download. Bytes are its default answer, even where it
 * also documents a JSON alternative that a request asks for with `Accept` (which these clients never send).
 */
type IsDownload<Operation> = [Exclude<SuccessMedia<Operation>, JsonMedia>] extends [never] ? false : true;

/** The empty object type: `Empty extends T` holds when `T` has no required key. */
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

/** The names of `T`'s array properties; a map's index signature (`{ [type: string]: T[] }`) names none. */
type ArrayKeys<T> = {
  [K in keyof T]-?: string extends K ? never : number extends K ? never : T[K] extends readonly unknown[] ? K : never;
}[keyof T];

/** Whether `K` is exactly one key: for each member, removing it leaves nothing. */
type IsOneKey<K> = [K] extends [never]
  ? false
  : { [Key in K & PropertyKey]: [Exclude<K, Key>] extends [never] ? true : false }[K & PropertyKey];

/** The element type of the one array property of a list page; never when there is not exactly one. */
type ItemOf<Page> =
  IsOneKey<ArrayKeys<Page>> extends true
    ? { [K in ArrayKeys<Page>]: Page[K] extends readonly (infer Item)[] ? Item : never }[ArrayKeys<Page>]
    : never;

/** One operation's entry, as `openapi-call-table` writes it. */
interface EntryOf<Operation> {
  operation: Operation;
  init: ParamsOf<Operation> & BodyOf<Operation>;
  required: Empty extends ParamsOf<Operation> & BodyOf<Operation> ? false : true;
  data: ContentOf<Responses<Operation, OkStatus>, JsonMedia>;
  error: ContentOf<Responses<Operation, ErrorStatus>, AnyMedia>;
  item: ItemOf<ContentOf<Responses<Operation, OkStatus>, JsonMedia>>;
  download: IsDownload<Operation>;
}

/** The call table of an API, derived from its `paths`: `createApiClient<CallTableOf<paths>, ...>`. */
export type CallTableOf<Paths> = {
  [M in ClientMethod]: { [P in keyof OperationsOf<Paths, M>]: EntryOf<OperationsOf<Paths, M>[P]> };
};

/** Whether each of `A` and `B` is assignable to the other. */
type Interchangeable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * The entries where two call tables disagree, as `"<method> <path> <field>"`; never when they agree. For a types
 * package to test its generated table against the one its `paths` derive: `CallTableMismatches<calls,
 * CallTableOf<paths>>` must be never.
 */
export type CallTableMismatches<A extends CallTable, B extends CallTable> = {
  [M in ClientMethod]: {
    [P in keyof A[M] | keyof B[M]]: P extends keyof A[M] & keyof B[M]
      ? {
          [F in keyof CallTypes]: Interchangeable<A[M][P][F], B[M][P][F]> extends true
            ? never
            : `${M} ${P & string} ${F}`;
        }[keyof CallTypes]
      : `${M} ${P & string}`;
  }[keyof A[M] | keyof B[M]];
}[ClientMethod];
