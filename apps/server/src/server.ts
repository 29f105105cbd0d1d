import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { createForumApp } from "./forum/forum-app.ts";
import { AuthFailureLimiter } from "./http/auth-failure-limiter.ts";
import type { RunningServer } from "./http/listen.ts";
import { listen } from "./http/listen.ts";
import { countedRateLimiters } from "./http/rate-limiter.ts";
import { compileAddressRule } from "./inbox/address-rule.ts";
import { EventHub } from "./inbox/events/event-hub.ts";
import { EventPruner } from "./inbox/events/event-pruner.ts";
import { EventStream } from "./inbox/events/event-stream.ts";
import { compileSubscriptionParser } from "./inbox/events/subscription.ts";
import { handleUpgrades } from "./inbox/events/upgrade-route.ts";
import { createInboxApp } from "./inbox/inbox-app.ts";
import { PageTokens } from "./inbox/page-token.ts";
import { postDeliveryAttempt } from "./inbox/webhooks/attempt-delivery.ts";
import { WebhookDeliveryWorker } from "./inbox/webhooks/delivery-worker.ts";
import type { ServiceName } from "./keys/api-keys.ts";
import { ApiKeys } from "./keys/api-keys.ts";
import type { KeyToRegister } from "./keys/register-key.ts";
import { AgentNameTakenError, DEV_AGENT_NAME, registerKey } from "./keys/register-key.ts";
import type { RunningSmtpListener } from "./mail/inbound/smtp-listener.ts";
import { startSmtpListener } from "./mail/inbound/smtp-listener.ts";
import { OutboundMailWorker } from "./mail/outbound/outbound-mail-worker.ts";
import { OutcomeSimulator } from "./mail/outbound/outcome-simulator.ts";
import { createRelayTransport, describeRelay } from "./mail/outbound/relay-transport.ts";
import { magicAddressOutcome } from "./mail/outbound/simulated-outcome.ts";
import type { ServerOptions } from "./options.ts";
import { DEFAULT_SMTP_RELAY_CLAIM_MS, resolveOptions } from "./options.ts";
import { loadSpecBundle } from "./spec/spec-bundle.ts";
import { openStorage } from "./storage/open-storage.ts";
import type { EventNotifications } from "./storage/postgres/event-notifications.ts";
import { ControllableClock } from "./test-control/controllable-clock.ts";
import { createExtractHandlers } from "./test-control/extract/extract-handlers.ts";
import { FaultRegistry } from "./test-control/faults/fault-registry.ts";
import { applyRequestFaults } from "./test-control/faults/request-faults.ts";
import { deliverWithFaults } from "./test-control/faults/webhook-faults.ts";
import { createResetter } from "./test-control/resetter.ts";
import { servedWithTestControl } from "./test-control/served-with-test-control.ts";
import { createTestControlApp } from "./test-control/test-control-app.ts";
import { createControlHandlers } from "./test-control/test-control-handlers.ts";
import { notifyingOutbox } from "./test-control/wait/notifying-outbox.ts";
import { createWaitHandlers } from "./test-control/wait/wait-handlers.ts";
import { WaitWakeups } from "./test-control/wait/wait-wakeups.ts";

export type { ServiceName };

/** One service of a running server: its address and, when development keys were registered, its key. */
export interface ServiceEndpoint<Key extends string | null> {
  url: string;
  apiKey: Key;
}

/** A running server: both services, their addresses and development keys (null when none were registered). */
export interface Server<Key extends string | null = string> {
  inbox: ServiceEndpoint<Key>;
  forum: ServiceEndpoint<Key>;
  /** Where the server receives mail over SMTP, or null when SMTP is off. */
  smtp: { host: string; port: number; url: string } | null;
  /**
   * Test control (`/_test`), as `createTestControl` of `@pigeonhole/test-control` takes it: the address it answers on
   * (the inbox port's; the forum port's answers too) and its key. Null when it is off.
   */
  testControl: { baseUrl: string; key: string } | null;
  /** Registers a new API key (a new pod; on the forum, a new agent named `name`) and returns it. */
  createApiKey(service: ServiceName, options?: { name?: string }): Promise<string>;
  /**
   * Stops accepting requests, lets requests in flight finish, stops webhook delivery and hands this instance's
   * claimed deliveries back to the others (they stay pending in the database), and closes the database.
   */
  close(): Promise<void>;
}

/** Starts both services on one database; several instances may share a PostgreSQL database. */
export function startServer(options: ServerOptions & { devKeys: false }): Promise<Server<null>>;
export function startServer(options?: ServerOptions): Promise<Server>;
export async function startServer(options: ServerOptions = {}): Promise<Server<string | null>> {
  const config = resolveOptions(options);
  const { logger } = config;
  // Under test control, the whole server reads a clock that tests can set and advance.
  const controlledClock = config.testControl ? new ControllableClock(config.clock) : undefined;
  const clock = controlledClock ?? config.clock;
  const faults = config.testControl ? new FaultRegistry(clock, logger) : undefined;
  // Waits for a message or a delivery look again after every commit that may have stored one.
  const waits = config.testControl ? new WaitWakeups() : undefined;
  // Outside recipients get a simulated outcome instead of the relay: a mail fault first, then the magic addresses.
  const simulator = faults
    ? new OutcomeSimulator((recipient) => faults.takeMailFault(recipient) ?? magicAddressOutcome(recipient))
    : undefined;
  const storage = await openStorage(config.database, {
    poolSize: config.databasePoolSize,
    onConnectionError: (error) => logger.warn("database connection lost", { error: error.message }),
  });
  const instanceId = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const servers: RunningServer[] = [];
  let worker: WebhookDeliveryWorker | undefined;
  let mailWorker: OutboundMailWorker | undefined;
  const hub = new EventHub({ log: storage.events, logger, pollMs: config.eventPollMs });
  const pruner = new EventPruner(storage.events, clock, logger);
  let notifications: EventNotifications | undefined;
  let eventStream: EventStream | undefined;
  let smtpListener: RunningSmtpListener | undefined;
  const shutDown = async () => {
    // SMTP stops first: a message in the middle of DATA is not answered 250, so its sender keeps it and retries.
    await smtpListener?.close();
    // WebSocket connections are told first (1001), so that the servers' close does not wait for them.
    await eventStream?.close();
    hub.stop();
    await pruner.stop();
    await notifications?.close();
    await Promise.all(servers.map((server) => server.close(config.shutdownGraceMs)));
    // Mail first: the outcomes it still records raise events for the webhook worker.
    await mailWorker?.stop();
    await worker?.stop();
    await storage.close();
  };

  try {
    const apiKeys = new ApiKeys(storage.keys, clock);
    const createApiKey = (service: ServiceName, keyOptions: KeyToRegister = {}) =>
      registerKey(apiKeys, service, keyOptions);
    if (config.devKeys) {
      await createApiKey("inbox", { key: config.devKeys.inbox, dev: true });
      const forumKey = config.devKeys.forum;
      // An agent registered through the API may hold the development agent's name: the key then gets a name of its own.
      await createApiKey("forum", { key: forumKey, name: DEV_AGENT_NAME, dev: true }).catch((error: unknown) =>
        error instanceof AgentNameTakenError
          ? createApiKey("forum", { key: forumKey, dev: true })
          : Promise.reject(error),
      );
    } else {
      // Turning development keys off removes those registered earlier, so that they stop opening anything.
      const removed = await apiKeys.revokeDevKeys();
      if (removed > 0) {
        logger.info("development keys removed", { count: removed });
      }
    }
    if (config.exposedOnNetwork.length > 0) {
      // Asked for by name, so started; but whoever reaches this interface can use them: say so on every start.
      logger.warn("loopback conveniences on a network interface: anyone who reaches it can use them", {
        host: config.host,
        exposed: config.exposedOnNetwork.join(", "),
      });
    }

    const deliveryWorker = new WebhookDeliveryWorker({
      outbox: waits ? notifyingOutbox(storage.outbox, () => waits.notify()) : storage.outbox,
      instanceId,
      soleInstance: storage.kind === "sqlite",
      claimMs: config.webhookClaimMs,
      clock,
      claimClock: config.clock,
      logger,
      retryDelaysMs: config.webhookRetryDelaysMs,
      allowPrivateDestinations: config.allowPrivateWebhooks,
      // A held delivery goes within a quarter of the claim, well before another instance could take it over.
      deliver: faults
        ? deliverWithFaults(faults, {
            deliver: postDeliveryAttempt,
            holdLimitMs: Math.floor(config.webhookClaimMs / 4),
          })
        : postDeliveryAttempt,
    });
    worker = deliveryWorker;
    const rateLimiters = countedRateLimiters(storage.rateWindows, clock);
    // In this process, bounded: a refused request costs one map operation, never a query (see the limiter).
    const authFailures = new AuthFailureLimiter(config.limits.authFailuresPerMinute, clock);
    const onDeliveriesEnqueued = () => {
      deliveryWorker.wake();
      waits?.notify();
    };
    const onEventsStored = (podIds: readonly string[]) => {
      for (const podId of podIds) {
        hub.wake(podId);
      }
      waits?.notify();
    };
    if (config.relay || simulator) {
      mailWorker = new OutboundMailWorker({
        queue: storage.mailQueue,
        sends: storage.sends,
        relay: config.relay
          ? createRelayTransport({
              url: config.relay.url,
              insecure: config.relay.insecure,
              dkim: config.relay.dkim,
              maxConnections: 5,
              timeoutMs: config.relay.timeoutMs,
            })
          : null,
        simulator,
        instanceId,
        soleInstance: storage.kind === "sqlite",
        clock,
        claimClock: config.clock,
        logger,
        retryDelaysMs: config.mailRetryDelaysMs,
        claimMs: config.relay?.claimMs ?? DEFAULT_SMTP_RELAY_CLAIM_MS,
        concurrency: 10,
        onDeliveriesEnqueued,
        onEventsStored,
      });
    }
    const outboundMail = mailWorker;
    const inboxApp = createInboxApp({
      relayConfigured: config.relay !== null,
      simulator,
      onMailQueued: () => outboundMail?.wake(),
      storage,
      rateLimiters,
      apiKeys,
      pageTokens: new PageTokens(await storage.secret("page_token_secret")),
      limits: { requestsPerMinute: config.limits.inboxRequestsPerMinute, sendsPerDay: config.limits.inboxSendsPerDay },
      onDeliveriesEnqueued,
      onEventsStored,
      webhooksPerPod: config.webhooksPerPod,
      domains: config.domains,
      dkim: config.relay?.dkim ?? undefined,
      trustedProxies: config.trustedProxies,
      authFailures,
      logger,
      clock,
      requestFaults: faults && applyRequestFaults(faults, "inbox"),
    });
    const forumApp = createForumApp({
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
      requestFaults: faults && applyRequestFaults(faults, "forum"),
    });
    const testControlApp =
      config.testControl && controlledClock && faults && waits
        ? createTestControlApp({
            key: config.testControl.key,
            handlers: {
              ...createControlHandlers({
                clock: controlledClock,
                faults,
                reset: createResetter({ storage, apiKeys, clock: controlledClock, faults }),
              }),
              ...createWaitHandlers({ storage, wakeups: waits }),
              ...createExtractHandlers({ storage }),
            },
            logger,
          })
        : undefined;
    // Moving the clock forward makes retries due now: the workers look at once rather than at their next timer.
    controlledClock?.onForward(() => {
      deliveryWorker.wake();
      outboundMail?.wake();
      void pruner.prune();
    });

    const stream = new EventStream({
      hub,
      log: storage.events,
      parseSubscription: compileSubscriptionParser(loadSpecBundle("inbox")),
      logger,
      clock,
      limits: { connectionsPerKey: config.websocketConnectionsPerKey },
    });
    eventStream = stream;
    // Another instance's commits: live events and waits hear of them as of this instance's own.
    notifications = storage.listenForEvents(
      (podId) => {
        hub.wake(podId);
        waits?.notify();
      },
      () => {
        hub.wakeAll();
        waits?.notify();
      },
      (error) => logger.warn("event notifications connection lost", { error: error.message }),
    );
    hub.start();
    pruner.start();
    const inboxServer = await listen(servedWithTestControl(inboxApp, testControlApp), config.host, config.inboxPort, {
      onUpgrade: handleUpgrades(inboxApp, stream),
    });
    servers.push(inboxServer);
    const forumServer = await listen(servedWithTestControl(forumApp, testControlApp), config.host, config.forumPort);
    servers.push(forumServer);
    if (config.smtp) {
      const isValidAddress = compileAddressRule(loadSpecBundle("inbox"));
      smtpListener = await startSmtpListener({
        ...config.smtp,
        domains: config.domains,
        isHosted: async (address) =>
          (await storage.sends.inSendTransaction((tx) => tx.findInboxesByAddress([address]))).length > 0,
        receive: {
          sends: storage.sends,
          clock,
          isValidAddress,
          defaultDomain: config.domains[0] ?? "pigeonhole.test",
          onDeliveriesEnqueued,
          onEventsStored,
        },
        logger,
      });
    }
    await deliveryWorker.start();
    await mailWorker?.start();
    logger.info("server started", {
      inbox_url: inboxServer.url,
      forum_url: forumServer.url,
      smtp_url: smtpListener?.url ?? null,
      smtp_relay: config.relay ? describeRelay(config.relay.url) : null,
      database: storage.description,
      instance_id: instanceId,
      test_control: config.testControl ? "on" : "off",
    });

    let closing: Promise<void> | undefined;
    return {
      inbox: { url: inboxServer.url, apiKey: config.devKeys?.inbox ?? null },
      forum: { url: forumServer.url, apiKey: config.devKeys?.forum ?? null },
      smtp: smtpListener ? { host: smtpListener.host, port: smtpListener.port, url: smtpListener.url } : null,
      testControl: config.testControl ? { baseUrl: inboxServer.url, key: config.testControl.key } : null,
      createApiKey: (service, keyOptions) => createApiKey(service, { name: keyOptions?.name }),
      close() {
        closing ??= shutDown().then(() => logger.info("server stopped", { instance_id: instanceId }));
        return closing;
      },
    };
  } catch (error) {
    await shutDown();
    throw error;
  }
}
