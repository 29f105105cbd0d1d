import type { MiddlewareHandler } from "hono";
import type { Clock } from "../clock.ts";
import type { RateLimiterFactory } from "../http/rate-limiter.ts";
import { inMemoryRateLimiters } from "../http/rate-limiter.ts";
import { createServiceApp } from "../http/service-app.ts";
import type { ApiKeys, InboxCaller } from "../keys/api-keys.ts";
import type { ServerLogger } from "../logger.ts";
import type { OutcomeSimulator } from "../mail/outbound/outcome-simulator.ts";
import { compileSpecOperations } from "../spec/request-validator.ts";
import { loadSpecBundle } from "../spec/spec-bundle.ts";
import type { Storage } from "../storage/open-storage.ts";
import { compileAddressRule } from "./address-rule.ts";
import { EVENT_STREAM_PATH, eventStreamRoute } from "./events/upgrade-route.ts";
import type { InboxProblemCode } from "./inbox-errors.ts";
import { formatInboxProblem } from "./inbox-errors.ts";
import { createInboxHandlers } from "./inbox-handlers.ts";
import type { PageTokens } from "./page-token.ts";

/** The Inbox API accepts bodies of at most 10 MiB. */
export const INBOX_MAX_BODY_BYTES = 10 * 1024 * 1024;

const RECIPIENT_FIELDS = new Set(["to", "cc", "bcc"]);

export interface InboxAppOptions {
  storage: Pick<Storage, "inboxes" | "webhooks" | "sends">;
  apiKeys: ApiKeys;
  pageTokens: PageTokens;
  limits: { requestsPerMinute: number; sendsPerDay: number };
  /** Where request counts are kept; in this process unless given. */
  rateLimiters?: RateLimiterFactory;
  onDeliveriesEnqueued(): void;
  /** Called after a send has committed, with the pods it stored events for. */
  onEventsStored?(podIds: readonly string[]): void;
  /** The domain of inboxes created without one (`ServerOptions.domains`). */
  defaultDomain?: string;
  /** Outside recipients are queued for the relay (`queued`) rather than kept (`captured`). */
  relayConfigured?: boolean;
  /** Called after a send that queued mail for the relay has committed. */
  onMailQueued?(): void;
  /** See `ServerOptions.trustedProxies`. */
  trustedProxies?: readonly string[];
  logger: ServerLogger;
  /** Test control's simulated outcomes of outside recipients (magic addresses, mail faults). */
  simulator?: OutcomeSimulator;
  /** Test control's request faults (see `ServiceAppOptions.requestFaults`). */
  requestFaults?: MiddlewareHandler;
  clock: Clock;
}

/** The Inbox API (`/v0`) as a Hono app. */
export function createInboxApp(options: InboxAppOptions) {
  const rateLimiters = options.rateLimiters ?? inMemoryRateLimiters(options.clock);
  const requests = rateLimiters({ name: "inbox", limit: options.limits.requestsPerMinute, unit: "requests" });
  const spec = loadSpecBundle("inbox");
  return createServiceApp<InboxCaller, InboxProblemCode>({
    service: "inbox",
    operations: compileSpecOperations(spec, "inbox"),
    handlers: createInboxHandlers({
      inboxes: options.storage.inboxes,
      webhooks: options.storage.webhooks,
      isValidAddress: compileAddressRule(spec),
      defaultDomain: options.defaultDomain,
      pageTokens: options.pageTokens,
      clock: options.clock,
      onDeliveriesEnqueued: options.onDeliveriesEnqueued,
      send: {
        sends: options.storage.sends,
        sendsPerDay: options.limits.sendsPerDay,
        onDeliveriesEnqueued: options.onDeliveriesEnqueued,
        onEventsStored: options.onEventsStored,
        relayConfigured: options.relayConfigured,
        simulator: options.simulator,
        onMailQueued: options.onMailQueued,
      },
    }),
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
    extraRoutes: { [EVENT_STREAM_PATH]: eventStreamRoute },
    queryKeyPaths: [EVENT_STREAM_PATH],
    trustedProxies: options.trustedProxies,
    logger: options.logger,
    requestFaults: options.requestFaults,
  });
}
