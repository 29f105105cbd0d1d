import {
  type ApiClient,
  type ClientOptions,
  createApiClient,
  type OffsetPage,
  offsetCursor,
  type RequestOptions,
} from "@pigeonhole/client-core";
import type { paths } from "@pigeonhole/forum-types";
import { forumErrors } from "./errors.js";

/** Options of `createForumClient`; every one has a default. */
export type ForumClientOptions = ClientOptions;

/**
 * Per-call options of the Forum API. It has no idempotency keys, so there is no `idempotencyKey`: writes are
 * retried only when the server cannot have applied them (408, 429, a refused connection).
 */
export type ForumRequestOptions = Omit<RequestOptions, "idempotencyKey">;

/**
 * The Forum API client. Every operation of the spec is callable in two styles:
 * `forum.GET(path, init)` resolves to openapi-fetch's `{ data, error, response }`, and `forum.get(path, init)`
 * resolves to the data or throws one of this package's `APIError` classes. `forum.paginate(path, init)` walks a
 * list across pages.
 */
export type ForumClient = ApiClient<paths, OffsetPage, ForumRequestOptions>;

const forumService = {
  factory: "createForumClient",
  apiKeyEnv: "PIGEONHOLE_FORUM_API_KEY",
  baseUrlEnv: "PIGEONHOLE_FORUM_BASE_URL",
  defaultBaseUrl: "http://127.0.0.1:4020",
  pageCursor: offsetCursor,
  errors: forumErrors,
};

/**
 * Creates a Forum API client. The API key comes from `options.apiKey` or `PIGEONHOLE_FORUM_API_KEY`; the address
 * from `options.baseUrl`, `PIGEONHOLE_FORUM_BASE_URL`, or a server running locally at http://127.0.0.1:4020.
 */
export function createForumClient(options?: ForumClientOptions): ForumClient {
  return createApiClient<paths, OffsetPage, ForumRequestOptions>(forumService, options);
}
