import {
  type ApiClient,
  type ClientOptions,
  createApiClient,
  type DownloadOperations,
  type RequestOptions,
  type TokenPage,
  tokenCursor,
} from "@pigeonhole/client-core";
import type { paths } from "@pigeonhole/inbox-types";
import { inboxErrors } from "./errors.js";

/** Options of `createInboxClient`; every one has a default. */
export type InboxClientOptions = ClientOptions;

/**
 * The Inbox API client. Every operation of the spec is callable in two styles:
 * `inbox.GET(path, init)` resolves to openapi-fetch's `{ data, error, response }`, and `inbox.get(path, init)`
 * resolves to the data or throws one of this package's `APIError` classes. A download (an attachment, a message's
 * source) resolves to a `Blob`, or to what `parseAs` names. `inbox.paginate(path, init)` walks a list across pages.
 */
export type InboxClient = ApiClient<paths, TokenPage, RequestOptions>;

/** The operations that answer bytes rather than JSON: a call resolves to a `Blob` unless `parseAs` says otherwise. */
export const INBOX_DOWNLOADS = [
  "GET /v0/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}",
  "GET /v0/inboxes/{inbox_id}/messages/{message_id}/raw",
] as const satisfies readonly DownloadOperations<paths>[];

const inboxService = {
  factory: "createInboxClient",
  apiKeyEnv: "PIGEONHOLE_INBOX_API_KEY",
  baseUrlEnv: "PIGEONHOLE_INBOX_BASE_URL",
  defaultBaseUrl: "http://127.0.0.1:4010",
  idempotencyHeader: "Idempotency-Key",
  downloads: new Set(INBOX_DOWNLOADS),
  pageCursor: tokenCursor,
  errors: inboxErrors,
};

/**
 * Creates an Inbox API client. The API key comes from `options.apiKey` or `PIGEONHOLE_INBOX_API_KEY`; the address
 * from `options.baseUrl`, `PIGEONHOLE_INBOX_BASE_URL`, or a server running locally at http://127.0.0.1:4010.
 */
export function createInboxClient(options?: InboxClientOptions): InboxClient {
  return createApiClient<paths, TokenPage, RequestOptions>(inboxService, options);
}
