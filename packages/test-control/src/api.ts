import type { ApiClient, RequestOptions, TokenPage } from "@pigeonhole/client-core";
import type { calls } from "@pigeonhole/test-control-types";

/**
 * Every operation of test control, callable in two styles: `GET(path, init)` resolves to openapi-fetch's
 * `{ data, error, response }`, `get(path, init)` to the data or throws one of this package's errors. No list of
 * test control has pages, so `paginate` has nothing to walk.
 */
export type TestControlApi = ApiClient<calls, TokenPage, RequestOptions>;

/** Options of one helper call: an abort `signal`, a `timeout` per attempt, `maxRetries`, and hooks. */
export type CallOptions = Omit<RequestOptions, "idempotencyKey">;
