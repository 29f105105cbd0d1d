import type { MiddlewareHandler } from "hono";
import type { Clock } from "../clock.ts";
import type { AuthFailureLimiter } from "../http/auth-failure-limiter.ts";
import type { RateLimiterFactory } from "../http/rate-limiter.ts";
import { inMemoryRateLimiters } from "../http/rate-limiter.ts";
import type { Readiness } from "../http/readiness.ts";
import { createServiceApp } from "../http/service-app.ts";
import type { ApiKeys, InboxCaller } from "../keys/api-keys.ts";
import type { ServerLogger } from "../logger.ts";
import type { OutcomeSimulator } from "../mail/outbound/outcome-simulator.ts";
import type { DkimKey } from "../mail/outbound/relay-transport.ts";
import type { RequestMeter } from "../metrics/instruments.ts";
import { compileSpecOperations } from "../spec/request-validator.ts";
import { loadSpecBundle } from "../spec/spec-bundle.ts";
import type { Storage } from "../storage/open-storage.ts";
import { AddressListRule } from "./address-lists.ts";
import { compileAddressRule } from "./address-rule.ts";
import { createPublicDownloadHandlers } from "./download-handlers.ts";
import { DownloadLinks } from "./download-links.ts";
import { AGENTMAIL_EVENT_STREAM_PATH, EVENT_STREAM_PATH, eventStreamRoute } from "./events/upgrade-route.ts";
import { HostedDomains } from "./hosted-domains.ts";
import type { InboxProblemCode } from "./inbox-errors.ts";
import { formatInboxProblem } from "./inbox-errors.ts";
import { createInboxHandlers } from "./inbox-handlers.ts";
import { keptOnceRead } from "./kept-once-read.ts";
import type { PageTokens } from "./page-token.ts";

/** The Inbox API accepts bodies of at most 10 MiB. */
export const INBOX_MAX_BODY_BYTES = 10 * 1024 * 1024;

const RECIPIENT_FIELDS = new Set(["to", "cc", "bcc"]);

export interface InboxAppOptions {
  storage: Pick<Storage, "inboxes" | "webhooks" | "sends" | "lists" | "drafts" | "eventQueries" | "search" | "secret">;
  apiKeys: ApiKeys;
  pageTokens: PageTokens;
  limits: { requestsPerMinute: number; sendsPerDay: number };
  /** Where request counts are kept; in this process unless given. */
  rateLimiters?: RateLimiterFactory;
  /** Webhooks one pod may have (`ServerOptions.webhooksPerPod`). */
  webhooksPerPod: number;
  /** Allow and block list entries one pod may have (`ServerOptions.listEntriesPerPod`). */
  listEntriesPerPod: number;
  /** Drafts one pod may hold (`ServerOptions.draftsPerPod`). */
  draftsPerPod: number;
  /**
   * The hosted domains (`ServerOptions.domains`, the first the default of Create Inbox): inboxes are created in, send
   * from and are delivered to locally in these only. Default `["pigeonhole.test"]`.
   */
  domains?: readonly string[];
  /** The relay's DKIM key, whose public record List Domains shows for the domain it signs for. */
  dkim?: DkimKey;
  /** Outside recipients are queued for the relay (`queued`) rather than kept (`captured`). */
  relayConfigured?: boolean;
  /** See `ServerOptions.trustedProxies`. */
  trustedProxies?: readonly string[];
  /** Counts requests without a valid key per client address (shared by both services); none when omitted. */
  authFailures?: AuthFailureLimiter;
  logger: ServerLogger;
  /** Test control's simulated outcomes of outside recipients (magic addresses, mail faults). */
  simulator?: OutcomeSimulator;
  /** Test control's request faults (see `ServiceAppOptions.requestFaults`). */
  requestFaults?: MiddlewareHandler;
  /** Answers `GET /ready` (see `ServiceAppOptions.readiness`). */
  readiness?: Readiness;
  /** Counts the answers (see `ServiceAppOptions.requestMeter`). */
  requestMeter?: RequestMeter;
  clock: Clock;
}

/** The Inbox API (`/v0`) as a Hono app. */
export function createInboxApp(options: InboxAppOptions) {
  const rateLimiters = options.rateLimiters ?? inMemoryRateLimiters(options.clock);
  const requests = rateLimiters({ name: "inbox", limit: options.limits.requestsPerMinute, unit: "requests" });
  // Every instance on the database signs with the same secret, so a link one made opens on any.
  const links = new DownloadLinks(keptOnceRead(() => options.storage.secret("download_link_secret")));
  const spec = loadSpecBundle("inbox");
  const domains = new HostedDomains(options.domains ?? [], options.dkim);
  return createServiceApp<InboxCaller, InboxProblemCode>({
    service: "inbox",
    operations: compileSpecOperations(spec, "inbox"),
    handlers: createInboxHandlers({
      inboxes: options.storage.inboxes,
      webhooks: options.storage.webhooks,
      drafts: options.storage.drafts,
      lists: options.storage.lists,
      search: options.storage.search,
      isValidAddress: compileAddressRule(spec),
      domains,
      pageTokens: options.pageTokens,
      clock: options.clock,
      webhooksPerPod: options.webhooksPerPod,
      listEntriesPerPod: options.listEntriesPerPod,
      draftsPerPod: options.draftsPerPod,
      links,
      apiKeys: options.apiKeys,
      eventQueries: options.storage.eventQueries,
      send: {
        sends: options.storage.sends,
        sendsPerDay: options.limits.sendsPerDay,
        relayConfigured: options.relayConfigured,
        simulator: options.simulator,
        isHostedAddress: (address) => domains.hostsAddress(address),
        addressLists: new AddressListRule(options.storage.lists),
      },
    }),
    publicHandlers: createPublicDownloadHandlers({ inboxes: options.storage.inboxes, clock: options.clock, links }),
    // A signed link needs no key: its requests count against the address they come from.
    publicRateLimit: (clientAddress) => requests.take(`address:${clientAddress}`),
    formatProblem: formatInboxProblem,
    async authenticate(apiKey) {
      return options.apiKeys.authenticateInbox(apiKey);
    },
    rateLimit: ({ caller, clientAddress }) =>
      requests.take(caller ? `key:${caller.podId}` : `address:${clientAddress}`),
    issueCode: (issue) =>
      issue.keyword === "maxItems" && issue.field !== null && RECIPIENT_FIELDS.has(issue.field)
        ? "TOO_MANY_RECIPIENTS"
        : issue.code,
    maxBodyBytes: INBOX_MAX_BODY_BYTES,
    extraRoutes: { [EVENT_STREAM_PATH]: eventStreamRoute, [AGENTMAIL_EVENT_STREAM_PATH]: eventStreamRoute },
    queryKeyPaths: [EVENT_STREAM_PATH, AGENTMAIL_EVENT_STREAM_PATH],
    trustedProxies: options.trustedProxies,
    authFailures: options.authFailures,
    logger: options.logger,
    callerLogFields: (caller) => ({ pod_id: caller.podId }),
    requestFaults: options.requestFaults,
    readiness: options.readiness,
    requestMeter: options.requestMeter,
  });
}
