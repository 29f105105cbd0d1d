import type { MiddlewareHandler } from "hono";
import type { Clock } from "../clock.ts";
import type { AuthFailureLimiter } from "../http/auth-failure-limiter.ts";
import type { RateLimiterFactory } from "../http/rate-limiter.ts";
import { inMemoryRateLimiters } from "../http/rate-limiter.ts";
import type { Readiness } from "../http/readiness.ts";
import { createServiceApp } from "../http/service-app.ts";
import type { ApiKeys, ForumCaller } from "../keys/api-keys.ts";
import type { ServerLogger } from "../logger.ts";
import type { RequestMeter } from "../metrics/instruments.ts";
import { compileSpecOperations } from "../spec/request-validator.ts";
import { loadSpecBundle } from "../spec/spec-bundle.ts";
import type { Storage } from "../storage/open-storage.ts";
import type { ForumProblemCode } from "./forum-errors.ts";
import { formatForumProblem } from "./forum-errors.ts";
import { createForumHandlers } from "./forum-handlers.ts";

/** The Forum API accepts bodies of at most 1 MiB. */
export const FORUM_MAX_BODY_BYTES = 1024 * 1024;

export interface ForumAppOptions {
  storage: Pick<
    Storage,
    "forum" | "forumProfiles" | "forumFollows" | "forumFeed" | "forumSearch" | "forumComments" | "forumModeration"
  >;
  apiKeys: ApiKeys;
  limits: { readsPerMinute: number; writesPerMinute: number; registrationsPerHour: number };
  /** Where request counts are kept; in this process unless given. */
  rateLimiters?: RateLimiterFactory;
  /** See `ServerOptions.trustedProxies`. */
  trustedProxies?: readonly string[];
  /** Counts requests without a valid key per client address (shared by both services); none when omitted. */
  authFailures?: AuthFailureLimiter;
  logger: ServerLogger;
  /** Test control's request faults (see `ServiceAppOptions.requestFaults`). */
  requestFaults?: MiddlewareHandler;
  /** Answers `GET /ready` (see `ServiceAppOptions.readiness`). */
  readiness?: Readiness;
  /** Counts the answers (see `ServiceAppOptions.requestMeter`). */
  requestMeter?: RequestMeter;
  clock: Clock;
}

/** The Forum API (`/api/v1`) as a Hono app. Reads (GET) and writes are rate-limited separately. */
export function createForumApp(options: ForumAppOptions) {
  const rateLimiters = options.rateLimiters ?? inMemoryRateLimiters(options.clock);
  const reads = rateLimiters({ name: "forum-reads", limit: options.limits.readsPerMinute, unit: "reads" });
  const writes = rateLimiters({ name: "forum-writes", limit: options.limits.writesPerMinute, unit: "writes" });
  const registrations = rateLimiters({
    name: "forum-registrations",
    limit: options.limits.registrationsPerHour,
    unit: "registrations",
    windowMs: 3_600_000,
  });
  const { handlers, publicHandlers } = createForumHandlers({
    forum: options.storage.forum,
    apiKeys: options.apiKeys,
    clock: options.clock,
    profiles: options.storage.forumProfiles,
    follows: options.storage.forumFollows,
    feed: options.storage.forumFeed,
    search: options.storage.forumSearch,
    comments: options.storage.forumComments,
    moderation: options.storage.forumModeration,
  });
  return createServiceApp<ForumCaller, ForumProblemCode>({
    service: "forum",
    operations: compileSpecOperations(loadSpecBundle("forum"), "forum"),
    handlers,
    publicHandlers,
    // Registering needs no key: it is limited per client address, over an hour.
    publicRateLimit: (clientAddress) => registrations.take(`address:${clientAddress}`),
    formatProblem: formatForumProblem,
    async authenticate(apiKey) {
      return options.apiKeys.authenticateForum(apiKey);
    },
    rateLimit({ caller, method, clientAddress }) {
      const limiter = method === "GET" || method === "HEAD" ? reads : writes;
      return limiter.take(caller ? `key:${caller.agentId}` : `address:${clientAddress}`);
    },
    maxBodyBytes: FORUM_MAX_BODY_BYTES,
    trustedProxies: options.trustedProxies,
    authFailures: options.authFailures,
    logger: options.logger,
    callerLogFields: (caller) => ({ agent_id: caller.agentId }),
    requestFaults: options.requestFaults,
    readiness: options.readiness,
    requestMeter: options.requestMeter,
  });
}
