import type { MaybeOptionalInit } from "openapi-fetch";
import type { HttpMethod, PathsWithMethod, RequiredKeysOf, SuccessResponseJSON } from "openapi-typescript-helpers";

/** The init argument, optional when nothing in it is required, with extra keys allowed (openapi-fetch's rule). */
export type InitParam<Init> =
  RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

/** The init argument, optional when nothing in it is required; unknown keys are errors, so typos are caught. */
export type StrictInitParam<Init> = RequiredKeysOf<Init> extends never ? [Init?] : [Init];

/** openapi-fetch's init for `method` on `path` (params, body, headers, ...) plus the client's per-call options. */
export type CallInit<PathItem, M extends HttpMethod, Options> = MaybeOptionalInit<PathItem, M & keyof PathItem> &
  Options;

/** The operation of `method` in a path item. */
export type OperationOf<PathItem, M extends HttpMethod> = PathItem extends {
  [K in M]: infer Operation extends Record<string | number, unknown>;
}
  ? Operation
  : never;

/** The JSON body of a successful response (undefined for a 204), as the spec names it. */
export type SuccessData<Operation> = SuccessResponseJSON<Operation & Record<string | number, unknown>>;

/** The JSON body of the successful response of a GET path. */
export type PageOf<PathItem> = SuccessResponseJSON<OperationOf<PathItem, "get">>;

/** Keys of `T` whose values are arrays. */
export type ArrayKeys<T> = { [K in keyof T]-?: T[K] extends readonly unknown[] ? K : never }[keyof T];

/** The element type of the one array property of a list page. */
export type ItemOf<Page> = {
  [K in ArrayKeys<Page>]: Page[K] extends readonly (infer Item)[] ? Item : never;
}[ArrayKeys<Page>];

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type IsSingle<K> = [K] extends [never] ? false : [K] extends [UnionToIntersection<K>] ? true : false;

/**
 * GET paths whose response is a list page of the service's paging style (`TPage`) holding exactly one array of
 * items; `paginate` accepts only these, so passing any other path is a type error.
 */
export type ListPath<Paths extends object, TPage> = {
  [P in PathsWithMethod<Paths, "get">]: [PageOf<Paths[P]>] extends [never]
    ? never
    : PageOf<Paths[P]> extends TPage
      ? IsSingle<ArrayKeys<PageOf<Paths[P]>>> extends true
        ? P
        : never
      : never;
}[PathsWithMethod<Paths, "get">];

export type { HttpMethod, PathsWithMethod };
