import {
  type ApiClient,
  type ClientOptions,
  createApiClient,
  type DownloadOperations,
  type RequestOptions,
  readEnv,
  type TokenPage,
  tokenCursor,
} from "@pigeonhole/client-core";
import type { calls } from "@pigeonhole/inbox-types";
import { AuthenticationError, inboxErrors } from "./errors.js";
import { type EventStreamTarget, type EventsOptions, type LiveEvents, liveEvents } from "./events.js";

/** Options of `createInboxClient`; every one has a default. */
export type InboxClientOptions = ClientOptions;

/**
 * The Inbox API client. Every operation of the spec is callable in two styles:
 * `inbox.GET(path, init)` resolves to openapi-fetch's `{ data, error, response }`, and `inbox.get(path, init)`
 * resolves to the data or throws one of this package's `APIError` classes. A download (an attachment, a message's
 * source) resolves to a `Blob`, or to what `parseAs` names. `inbox.paginate(path, init)` walks a list across pages.
 */
export interface InboxClient extends ApiClient<calls, TokenPage, RequestOptions> {
  /**
   * The API key's events, live over a WebSocket, as an async iterable:
   * `for await (const event of inbox.events({ inbox_ids, signal })) { ... }`. Events arrive in the order they
   * happened, each once; after a dropped connection the client reconnects with backoff and resumes after the last
   * event it yielded. Aborting `signal` or leaving the loop closes the connection. Rejects with `EventStreamError`
   * when the service refuses the subscription, and with `AuthenticationError` when the key is refused.
   * `await events.ready()` waits until the service listens, so that what happens next is heard.
   */
  events(options?: EventsOptions): LiveEvents;
  withOptions(options: InboxClientOptions): InboxClient;
}

/** The operations that answer bytes rather than JSON: a call resolves to a `Blob` unless `parseAs` says otherwise. */
export const INBOX_DOWNLOADS = [
  "GET /v0/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}",
  "GET /v0/inboxes/{inbox_id}/messages/{message_id}/raw",
  "GET /v0/inboxes/{inbox_id}/threads/{thread_id}/attachments/{attachment_id}",
  "GET /v0/downloads/{token}",
  "GET /v0/domains/{domain_id}/zone-file",
] as const satisfies readonly DownloadOperations<calls>[];

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
export function createInboxClient(options: InboxClientOptions = {}): InboxClient {
  return withEvents(createApiClient<calls, TokenPage, RequestOptions>(inboxService, options), options);
}

/** Adds `events()` to a client made with `options`, and keeps it on the clients `withOptions` derives. */
function withEvents(client: ApiClient<calls, TokenPage, RequestOptions>, options: InboxClientOptions): InboxClient {
  // The same key and address as the client's requests; createApiClient has already refused a missing key.
  const target: EventStreamTarget = {
    apiKey: options.apiKey ?? readEnv(inboxService.apiKeyEnv) ?? "",
    baseUrl: options.baseUrl ?? readEnv(inboxService.baseUrlEnv) ?? inboxService.defaultBaseUrl,
    async diagnose(signal) {
      try {
        await client.get("/v0/inboxes", { params: { query: { limit: 1 } }, signal });
      } catch (error) {
        // Only a refused key explains a refused upgrade for good; anything else may pass, so the stream retries.
        if (error instanceof AuthenticationError) {
          throw error;
        }
      }
    },
  };
  const derive = client.withOptions.bind(client);
  return Object.assign(client, {
    events: (eventOptions?: EventsOptions) => liveEvents(target, eventOptions),
    withOptions: (overrides: InboxClientOptions) => withEvents(derive(overrides), { ...options, ...overrides }),
  });
}
