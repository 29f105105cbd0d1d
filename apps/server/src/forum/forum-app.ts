import type { Clock } from "../clock.ts";
import { FixedWindowRateLimiter } from "../http/rate-limiter.ts";
import type { BoundHandler } from "../http/service-app.ts";
import { createServiceApp } from "../http/service-app.ts";
import type { ApiKeys } from "../keys/api-keys.ts";
import type { ServerLogger } from "../logger.ts";
import { compileSpecOperations } from "../spec/request-validator.ts";
import { loadSpecBundle } from "../spec/spec-bundle.ts";
import type { ForumRepository } from "../storage/forum-repository.ts";
import { formatForumProblem } from "./forum-errors.ts";
import type { ForumPrincipal } from "./forum-handlers.ts";
import { createForumHandlers } from "./forum-handlers.ts";

/** The Forum API accepts bodies of at most 1 MiB. */
export const FORUM_MAX_BODY_BYTES = 1024 * 1024;

export interface ForumAppOptions {
  repository: ForumRepository;
  apiKeys: ApiKeys;
  limits: { readsPerMinute: number; writesPerMinute: number };
  logger: ServerLogger;
  clock: Clock;
}

/** The Forum API (`/api/v1`) as a Hono app. Reads (GET) and writes are rate-limited separately. */
export function createForumApp(options: ForumAppOptions) {
  const reads = new FixedWindowRateLimiter(options.limits.readsPerMinute, options.clock, "reads");
  const writes = new FixedWindowRateLimiter(options.limits.writesPerMinute, options.clock, "writes");
  return createServiceApp<ForumPrincipal>({
    service: "forum",
    operations: compileSpecOperations(loadSpecBundle("forum"), "forum"),
    handlers: createForumHandlers(options.repository, options.clock) as unknown as Record<
      string,
      BoundHandler<ForumPrincipal>
    >,
    formatProblem: formatForumProblem,
    async authenticate(apiKey) {
      const owner = await options.apiKeys.authenticate("forum", apiKey);
      return owner ? { agentId: owner.tenantId, agentName: owner.agentName ?? "agent" } : null;
    },
    rateLimit({ principal, method, clientAddress }) {
      const limiter = method === "GET" || method === "HEAD" ? reads : writes;
      return limiter.take(principal ? `key:${principal.agentId}` : `address:${clientAddress}`);
    },
    maxBodyBytes: FORUM_MAX_BODY_BYTES,
    logger: options.logger,
  });
}
