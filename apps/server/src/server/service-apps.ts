import type { MiddlewareHandler } from "hono";
import { createForumApp } from "../forum/forum-app.ts";
import { AuthFailureLimiter } from "../http/auth-failure-limiter.ts";
import { countedRateLimiters } from "../http/rate-limiter.ts";
import type { Readiness } from "../http/readiness.ts";
import { createInboxApp } from "../inbox/inbox-app.ts";
import { PageTokens } from "../inbox/page-token.ts";
import type { ApiKeys } from "../keys/api-keys.ts";
import type { OutcomeSimulator } from "../mail/outbound/outcome-simulator.ts";
import type { RequestMeter } from "../metrics/instruments.ts";
import type { StartContext } from "./start-context.ts";

/** What the services' apps take from test control when it is on. */
export interface ServiceAppDependencies {
  /** Simulated outcomes for outside recipients, decided at the send. */
  simulator: OutcomeSimulator | undefined;
  /** Request faults of each service, applied before anything else handles its requests. */
  inboxFaults: MiddlewareHandler | undefined;
  forumFaults: MiddlewareHandler | undefined;
}

/**
 * Both services' apps, sharing the rate-limit windows, the limiter of failed authentications and `/ready`, and
 * counting their answers with `requestMeter` when metrics are on.
 */
export async function createServiceApps(
  context: StartContext,
  apiKeys: ApiKeys,
  dependencies: ServiceAppDependencies,
  readiness: Readiness,
  requestMeter?: RequestMeter,
) {
  const { config, storage, clock } = context;
  const { logger } = config;
  const rateLimiters = countedRateLimiters(storage.rateWindows, clock);
  // In this process, bounded: a refused request costs one map operation, never a query (see the limiter).
  const authFailures = new AuthFailureLimiter(config.limits.authFailuresPerMinute, clock);
  const inbox = createInboxApp({
    relayConfigured: config.relay !== null,
    simulator: dependencies.simulator,
    storage,
    rateLimiters,
    apiKeys,
    pageTokens: new PageTokens(await storage.secret("page_token_secret")),
    limits: { requestsPerMinute: config.limits.inboxRequestsPerMinute, sendsPerDay: config.limits.inboxSendsPerDay },
    webhooksPerPod: config.webhooksPerPod,
    listEntriesPerPod: config.listEntriesPerPod,
    draftsPerPod: config.draftsPerPod,
    domains: config.domains,
    dkim: config.relay?.dkim ?? undefined,
    trustedProxies: config.trustedProxies,
    authFailures,
    logger,
    clock,
    requestFaults: dependencies.inboxFaults,
    readiness,
    requestMeter,
  });
  const forum = createForumApp({
    storage,
    rateLimiters,
    apiKeys,
    limits: {
      readsPerMinute: config.limits.forumReadsPerMinute,
      writesPerMinute: config.limits.forumWritesPerMinute,
      registrationsPerHour: config.limits.forumRegistrationsPerHour,
    },
    trustedProxies: config.trustedProxies,
    authFailures,
    logger,
    clock,
    requestFaults: dependencies.forumFaults,
    readiness,
    requestMeter,
  });
  return { inbox, forum };
}
