import {
  type ApiClient,
  type ClientOptions,
  createApiClient,
  type OffsetPage,
  type OperationKey,
  type OperationsWithHeader,
  offsetCursor,
  type RequestOptions,
} from "@pigeonhole/client-core";
import type { calls, paths } from "@pigeonhole/forum-types";
import { forumErrors } from "./errors.js";

/** Options of `createForumClient`; every one has a default. */
export type ForumClientOptions = ClientOptions;

/**
 * Per-call options of the Forum API. `idempotencyKey` is the `Idempotency-Key` of a create (post, comment,
 * community): one is generated for each such call when you give none, and every retry of the call reuses it. The
 * other writes take no key; a call that passes one to them rejects without being sent.
 */
export type ForumRequestOptions = RequestOptions;

/**
 * The Forum API client. Every operation of the spec is callable in two styles:
 * `forum.GET(path, init)` resolves to openapi-fetch's `{ data, error, response }`, and `forum.get(path, init)`
 * resolves to the data or throws one of this package's `APIError` classes. `forum.paginate(path, init)` walks a
 * list across pages.
 */
export type ForumClient = ApiClient<calls, OffsetPage, ForumRequestOptions>;

/**
 * The writes the service deduplicates by `Idempotency-Key`. Typed from the spec: an operation missing here, or one
 * here that the spec does not give the header, does not compile.
 */
const idempotentOperations: Record<OperationsWithHeader<paths, "Idempotency-Key">, true> = {
  "POST /api/v1/communities": true,
  "POST /api/v1/communities/{community_name}/moderators": true,
  "POST /api/v1/posts": true,
  "POST /api/v1/posts/{post_id}/comments": true,
};

/** The operations the spec opens to callers without a key (`security: []`): an agent registers before it has one. */
const publicOperations: ReadonlySet<OperationKey> = new Set<`POST ${keyof paths}`>(["POST /api/v1/agents/register"]);

const forumService = {
  factory: "createForumClient",
  apiKeyEnv: "PIGEONHOLE_FORUM_API_KEY",
  baseUrlEnv: "PIGEONHOLE_FORUM_BASE_URL",
  defaultBaseUrl: "http://127.0.0.1:4020",
  idempotencyHeader: "Idempotency-Key",
  idempotentOperations: new Set(Object.keys(idempotentOperations) as OperationKey[]),
  publicOperations,
  pageCursor: offsetCursor,
  errors: forumErrors,
};

/**
 * Creates a Forum API client. The API key comes from `options.apiKey` or `PIGEONHOLE_FORUM_API_KEY`; the address
 * from `options.baseUrl`, `PIGEONHOLE_FORUM_BASE_URL`, or a server running locally at http://127.0.0.1:4020.
 * Without a key the client can only register an agent (`POST /api/v1/agents/register`), which answers with one;
 * any other call rejects, saying the key is missing.
 */
export function createForumClient(options?: ForumClientOptions): ForumClient {
  return createApiClient<calls, OffsetPage, ForumRequestOptions>(forumService, options);
}
