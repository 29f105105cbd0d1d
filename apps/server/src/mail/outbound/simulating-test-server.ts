import type { Clock } from "../../clock.ts";
import { systemClock } from "../../clock.ts";
import type { RunningServer } from "../../http/listen.ts";
import { listen } from "../../http/listen.ts";
import { inMemoryRateLimiters } from "../../http/rate-limiter.ts";
import { createServiceApp } from "../../http/service-app.ts";
import { compileAddressRule } from "../../inbox/address-rule.ts";
import { EventHub } from "../../inbox/events/event-hub.ts";
import { EventStream } from "../../inbox/events/event-stream.ts";
import { compileSubscriptionParser } from "../../inbox/events/subscription.ts";
import { EVENT_STREAM_PATH, eventStreamRoute, handleUpgrades } from "../../inbox/events/upgrade-route.ts";
import type { InboxProblemCode } from "../../inbox/inbox-errors.ts";
import { formatInboxProblem } from "../../inbox/inbox-errors.ts";
import { createInboxHandlers } from "../../inbox/inbox-handlers.ts";
import { PageTokens } from "../../inbox/page-token.ts";
import { WebhookDeliveryWorker } from "../../inbox/webhooks/delivery-worker.ts";
import type { InboxCaller } from "../../keys/api-keys.ts";
import { ApiKeys } from "../../keys/api-keys.ts";
import { registerKey } from "../../keys/register-key.ts";
import type { ServerLogger } from "../../logger.ts";
import { silentLogger } from "../../logger.ts";
import { compileSpecOperations } from "../../spec/request-validator.ts";
import { loadSpecBundle } from "../../spec/spec-bundle.ts";
import { openStorage } from "../../storage/open-storage.ts";
import type { InboxClient } from "../../testing/test-server.ts";
import { inboxClient } from "../../testing/test-server.ts";
import { OutboundMailWorker } from "./outbound-mail-worker.ts";
import { OutcomeSimulator } from "./outcome-simulator.ts";
import { createRelayTransport } from "./relay-transport.ts";
import type { SimulateOutcome } from "./simulated-outcome.ts";

// The Inbox API with the outbound mail path as the server runs it when outcomes are simulated: the same stores,
// handlers, outbound and webhook workers and live stream, on 127.0.0.1, for the tests of simulated outcomes.

export interface SimulatingServerOptions {
  simulateOutcome: SimulateOutcome;
  /** A relay URL; none by default. */
  smtpRelay?: string;
  /** How long the relay has to answer each command. */
  relayTimeoutMs?: number;
  retryDelaysMs?: readonly number[];
  /** How long the outbound worker holds a recipient; after a crash, another start takes it over after this. */
  claimMs?: number;
  /** A database URL, SQLite path or `:memory:`. */
  database: string;
  /** A fixed API key to register (so that a restarted server answers the same key). */
  apiKey?: string;
  clock?: Clock;
  logger?: ServerLogger;
}

export interface SimulatingServer {
  url: string;
  apiKey: string;
  inbox: InboxClient;
  simulator: OutcomeSimulator;
  close(): Promise<void>;
}

export async function startSimulatingServer(options: SimulatingServerOptions): Promise<SimulatingServer> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const storage = await openStorage(options.database, { poolSize: 4 });
  const soleInstance = storage.kind === "sqlite";
  const apiKeys = new ApiKeys(storage.keys, clock);
  const apiKey = await registerKey(apiKeys, "inbox", { key: options.apiKey });
  const webhooks = new WebhookDeliveryWorker({
    outbox: storage.outbox,
    instanceId: `simulating-${process.pid}`,
    soleInstance,
    claimMs: 10_000,
    clock,
    logger,
    retryDelaysMs: [200, 200],
    allowPrivateDestinations: true,
  });
  const hub = new EventHub({ log: storage.events, logger, pollMs: 200 });
  const onEventsStored = (podIds: readonly string[]) => {
    for (const podId of podIds) {
      hub.wake(podId);
    }
  };
  const simulator = new OutcomeSimulator(options.simulateOutcome);
  const mail = new OutboundMailWorker({
    queue: storage.mailQueue,
    sends: storage.sends,
    relay: options.smtpRelay
      ? createRelayTransport({
          url: options.smtpRelay,
          insecure: false,
          dkim: null,
          maxConnections: 2,
          timeoutMs: options.relayTimeoutMs ?? 1_000,
        })
      : null,
    simulator,
    instanceId: `simulating-${process.pid}`,
    soleInstance,
    clock,
    logger,
    retryDelaysMs: options.retryDelaysMs ?? [60_000, 300_000],
    claimMs: options.claimMs ?? 10_000,
    concurrency: 4,
    pollIntervalMs: 200,
    onDeliveriesEnqueued: () => webhooks.wake(),
    onEventsStored,
  });
  const spec = loadSpecBundle("inbox");
  const requests = inMemoryRateLimiters(clock)({ name: "inbox", limit: 1_000_000, unit: "requests" });
  const app = createServiceApp<InboxCaller, InboxProblemCode>({
    service: "inbox",
    operations: compileSpecOperations(spec, "inbox"),
    handlers: createInboxHandlers({
      inboxes: storage.inboxes,
      webhooks: storage.webhooks,
      isValidAddress: compileAddressRule(spec),
      pageTokens: new PageTokens(await storage.secret("page_token_secret")),
      clock,
      onDeliveriesEnqueued: () => webhooks.wake(),
      send: {
        sends: storage.sends,
        sendsPerDay: 1_000_000,
        onDeliveriesEnqueued: () => webhooks.wake(),
        onEventsStored,
        relayConfigured: options.smtpRelay !== undefined,
        simulator,
        onMailQueued: () => mail.wake(),
      },
    }),
    formatProblem: formatInboxProblem,
    authenticate: (key) => apiKeys.authenticateInbox(key),
    rateLimit: ({ caller, clientAddress }) =>
      requests.take(caller ? `key:${caller.podId}` : `address:${clientAddress}`),
    maxBodyBytes: 10 * 1024 * 1024,
    extraRoutes: { [EVENT_STREAM_PATH]: eventStreamRoute },
    queryKeyPaths: [EVENT_STREAM_PATH],
    logger,
  });
  const stream = new EventStream({
    hub,
    log: storage.events,
    parseSubscription: compileSubscriptionParser(spec),
    logger,
    clock,
  });
  hub.start();
  let server: RunningServer | undefined;
  try {
    server = await listen(app, "127.0.0.1", 0, { onUpgrade: handleUpgrades(app, stream) });
    await webhooks.start();
    await mail.start();
  } catch (error) {
    await server?.close(0);
    throw error;
  }
  const running = server;
  return {
    url: running.url,
    apiKey,
    inbox: inboxClient(running.url, apiKey),
    simulator,
    async close() {
      await stream.close();
      hub.stop();
      await running.close(1_000);
      await mail.stop();
      await webhooks.stop();
      await storage.close();
    },
  };
}
