import { isoTimestamp } from "./clock.ts";
import { DEFAULT_COMMUNITY } from "./forum/default-community.ts";
import { createForumApp } from "./forum/forum-app.ts";
import type { RunningServer } from "./http/listen.ts";
import { listen } from "./http/listen.ts";
import { createInboxApp } from "./inbox/inbox-app.ts";
import { PageTokens } from "./inbox/page-token.ts";
import { WebhookDeliveryWorker } from "./inbox/webhooks/delivery-worker.ts";
import { createApiKeys } from "./keys/api-keys.ts";
import { registerKey } from "./keys/register-key.ts";
import type { ServerOptions } from "./options.ts";
import { resolveOptions } from "./options.ts";
import { openDatabase } from "./storage/database.ts";
import { SqliteForumRepository } from "./storage/forum-repository.ts";
import { SqliteInboxRepository } from "./storage/inbox/inbox-repository.ts";
import { SqliteKeyRepository } from "./storage/key-repository.ts";
import { loadOrCreateSecret } from "./storage/meta.ts";
import type { ServiceName } from "./storage/schema.ts";

export type { ServiceName };

/** A running server: both services, their addresses and development keys. */
export interface Server {
  inbox: { url: string; apiKey: string };
  forum: { url: string; apiKey: string };
  /** Registers a new API key (a new tenant; on the forum, an agent named `name`) and returns it. */
  createApiKey(service: ServiceName, options?: { name?: string }): Promise<string>;
  /**
   * Stops accepting requests, lets requests in flight finish, stops webhook delivery (pending deliveries stay in
   * the database) and closes the database.
   */
  close(): Promise<void>;
}

/** Starts both services on one database. */
export async function startServer(options: ServerOptions = {}): Promise<Server> {
  const config = resolveOptions(options);
  const { clock, logger } = config;
  const db = await openDatabase(config.database);
  const servers: RunningServer[] = [];
  let worker: WebhookDeliveryWorker | undefined;
  const shutDown = async () => {
    await Promise.all(servers.map((server) => server.close()));
    await worker?.stop();
    await db.destroy();
  };

  try {
    const apiKeys = createApiKeys(new SqliteKeyRepository(db), clock);
    const inboxRepository = new SqliteInboxRepository(db);
    const forumRepository = new SqliteForumRepository(db);
    const createApiKey = async (service: ServiceName, keyOptions: { key?: string; name?: string } = {}) =>
      (await registerKey({ apiKeys, forumRepository, clock }, service, keyOptions)).key;
    await createApiKey("inbox", { key: config.devKeys.inbox });
    await createApiKey("forum", { key: config.devKeys.forum });
    // Tenants registered by another process (`keys create`) get their default community at start as well.
    await forumRepository.ensureCommunity(DEFAULT_COMMUNITY, isoTimestamp(clock.now()));

    const deliveryWorker = new WebhookDeliveryWorker({
      repository: inboxRepository,
      clock,
      logger,
      retryDelaysMs: config.webhookRetryDelaysMs,
      allowPrivateDestinations: config.allowPrivateWebhooks,
    });
    worker = deliveryWorker;
    const inboxApp = createInboxApp({
      repository: inboxRepository,
      apiKeys,
      pageTokens: new PageTokens(await loadOrCreateSecret(db, "page_token_secret")),
      limits: { requestsPerMinute: config.limits.inboxRequestsPerMinute, sendsPerDay: config.limits.inboxSendsPerDay },
      onDeliveriesEnqueued: () => deliveryWorker.wake(),
      logger,
      clock,
    });
    const forumApp = createForumApp({
      repository: forumRepository,
      apiKeys,
      limits: {
        readsPerMinute: config.limits.forumReadsPerMinute,
        writesPerMinute: config.limits.forumWritesPerMinute,
      },
      logger,
      clock,
    });

    const inboxServer = await listen(inboxApp, config.host, config.inboxPort);
    servers.push(inboxServer);
    const forumServer = await listen(forumApp, config.host, config.forumPort);
    servers.push(forumServer);
    await deliveryWorker.start();
    logger.info("server started", {
      inbox_url: inboxServer.url,
      forum_url: forumServer.url,
      database: config.database,
    });

    let closing: Promise<void> | undefined;
    return {
      inbox: { url: inboxServer.url, apiKey: config.devKeys.inbox },
      forum: { url: forumServer.url, apiKey: config.devKeys.forum },
      createApiKey: (service, keyOptions) => createApiKey(service, { name: keyOptions?.name }),
      close() {
        closing ??= shutDown().then(() => logger.info("server stopped"));
        return closing;
      },
    };
  } catch (error) {
    await shutDown();
    throw error;
  }
}
