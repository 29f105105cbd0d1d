import type { Clock } from "../clock.ts";
import { FixedWindowRateLimiter } from "../http/rate-limiter.ts";
import type { BoundHandler } from "../http/service-app.ts";
import { createServiceApp } from "../http/service-app.ts";
import type { ApiKeys } from "../keys/api-keys.ts";
import type { ServerLogger } from "../logger.ts";
import { compileSpecOperations } from "../spec/request-validator.ts";
import { loadSpecBundle } from "../spec/spec-bundle.ts";
import type { InboxRepository } from "../storage/inbox/inbox-repository.ts";
import { compileAddressRule } from "./address-rule.ts";
import { formatInboxProblem } from "./inbox-errors.ts";
import type { InboxPrincipal } from "./inbox-handlers.ts";
import { createInboxHandlers } from "./inbox-handlers.ts";
import type { PageTokens } from "./page-token.ts";

/** The Inbox API accepts bodies of at most 10 MiB. */
export const INBOX_MAX_BODY_BYTES = 10 * 1024 * 1024;

const RECIPIENT_FIELDS = new Set(["to", "cc", "bcc"]);

export interface InboxAppOptions {
  repository: InboxRepository;
  apiKeys: ApiKeys;
  pageTokens: PageTokens;
  limits: { requestsPerMinute: number; sendsPerDay: number };
  onDeliveriesEnqueued(): void;
  logger: ServerLogger;
  clock: Clock;
}

/** The Inbox API (`/v0`) as a Hono app. */
export function createInboxApp(options: InboxAppOptions) {
  const requests = new FixedWindowRateLimiter(options.limits.requestsPerMinute, options.clock);
  const spec = loadSpecBundle("inbox");
  const handlers = createInboxHandlers({
    repository: options.repository,
    isValidAddress: compileAddressRule(spec),
    pageTokens: options.pageTokens,
    clock: options.clock,
    send: { sendsPerDay: options.limits.sendsPerDay, onDeliveriesEnqueued: options.onDeliveriesEnqueued },
  });
  return createServiceApp<InboxPrincipal>({
    service: "inbox",
    operations: compileSpecOperations(spec, "inbox"),
    handlers: handlers as unknown as Record<string, BoundHandler<InboxPrincipal>>,
    formatProblem: formatInboxProblem,
    async authenticate(apiKey) {
      const owner = await options.apiKeys.authenticate("inbox", apiKey);
      return owner ? { podId: owner.tenantId } : null;
    },
    rateLimit({ principal, clientAddress }) {
      return requests.take(principal ? `key:${principal.podId}` : `address:${clientAddress}`);
    },
    issueCode: (issue) =>
      issue.keyword === "maxItems" && issue.field !== null && RECIPIENT_FIELDS.has(issue.field)
        ? "TOO_MANY_RECIPIENTS"
        : issue.code,
    maxBodyBytes: INBOX_MAX_BODY_BYTES,
    logger: options.logger,
  });
}
