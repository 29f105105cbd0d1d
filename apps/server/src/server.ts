import type { RunningServer } from "./http/listen.ts";
import { handleUpgrades } from "./inbox/events/upgrade-route.ts";
import { postDeliveryAttempt } from "./inbox/webhooks/attempt-delivery.ts";
import type { ServiceName } from "./keys/api-keys.ts";
import { ApiKeys } from "./keys/api-keys.ts";
import { registerKey } from "./keys/register-key.ts";
import { describeRelay } from "./mail/outbound/relay-transport.ts";
import type { ServerOptions } from "./options.ts";
import { resolveOptions } from "./options.ts";
import { workOffCommits } from "./server/commit-announcer.ts";
import { settleDevelopmentKeys } from "./server/development-keys.ts";
import { drainThenShutDown } from "./server/drain.ts";
import { listenServices } from "./server/listen-services.ts";
import { startLiveEvents } from "./server/live-events.ts";
import { startReceivingMail } from "./server/receiving-mail.ts";
import { createMetrics, listenForScrapes } from "./server/server-metrics.ts";
import type { ServerParts } from "./server/server-parts.ts";
import { firstParts, shutDown } from "./server/server-parts.ts";
import { createServiceApps } from "./server/service-apps.ts";
import type { StartContext } from "./server/start-context.ts";
import { openStartContext } from "./server/start-context.ts";
import { warnOfLoweredGuards } from "./server/start-warnings.ts";
import { createWorkers } from "./server/workers.ts";
import { createTestControlSeam } from "./test-control/test-control-seam.ts";

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
  /** Where Prometheus scrapes the server's metrics (`.../metrics`), or null when metrics are off. */
  metrics: { url: string } | null;
  /**
   * Test control (`/_test`), as `createTestControl` of `@pigeonhole/test-control` takes it: the address it answers on
   * (the inbox port's; the forum port's answers too) and its key. Null when it is off.
   */
  testControl: { baseUrl: string; key: string } | null;
  /** Registers a new API key (a new pod; on the forum, a new agent named `name`) and returns it. */
  createApiKey(service: ServiceName, options?: { name?: string }): Promise<string>;
  /**
   * Drains: `/ready` answers 503 `draining` at once, and requests keep being served for `drainDelayMs`; then stops
   * accepting requests, lets requests in flight finish, stops webhook delivery and hands this instance's claimed
   * deliveries back to the others (they stay pending in the database), and closes the database (see server/drain.ts).
   */
  close(): Promise<void>;
}

/** Starts both services on one database; several instances may share a PostgreSQL database. */
export function startServer(options: ServerOptions & { devKeys: false }): Promise<Server<null>>;
export function startServer(options?: ServerOptions): Promise<Server>;
export async function startServer(options: ServerOptions = {}): Promise<Server<string | null>> {
  const config = resolveOptions(options);
  // Test control is one seam, made only when it is on: the server asks it for each part it replaces or wraps.
  const testControl = config.testControl
    ? createTestControlSeam({ key: config.testControl.key, clock: config.clock, logger: config.logger })
    : undefined;
  // Under test control, the whole server reads a clock that tests can set and advance.
  const context = await openStartContext(config, testControl?.clock ?? config.clock);
  const { storage } = context;
  const parts = firstParts(context);
  try {
    const apiKeys = new ApiKeys(storage.keys, context.clock);
    await settleDevelopmentKeys(apiKeys, config);
    warnOfNetworkExposure(context);
    warnOfLoweredGuards(context);
    const metrics = createMetrics(parts);
    const workers = createWorkers(parts, {
      outbox: testControl?.webhookOutbox(storage.outbox) ?? storage.outbox,
      deliver: testControl?.webhookDeliver(postDeliveryAttempt, config.webhookClaimMs) ?? postDeliveryAttempt,
      simulator: testControl?.mailOutcomes,
    });
    storage.announceCommitsTo(workOffCommits(parts.hub, workers, testControl?.notifyWaits));
    const apps = await createServiceApps(
      context,
      apiKeys,
      {
        simulator: testControl?.mailOutcomes,
        inboxFaults: testControl?.requestFaults("inbox"),
        forumFaults: testControl?.requestFaults("forum"),
      },
      parts.readiness,
      metrics?.requests,
    );
    // Moving the clock forward makes retries due now: the workers look at once rather than at their next timer.
    testControl?.onClockForward(() => {
      workers.delivery.wake();
      workers.mail?.wake();
      workers.drafts.wake();
      void parts.pruner.prune();
    });
    const eventStream = startLiveEvents(parts, testControl?.notifyWaits);
    const served = testControl?.servedBeside(apps, { storage, apiKeys }) ?? apps;
    const endpoints = await listenServices(parts, served, handleUpgrades(apps.inbox, eventStream));
    if (config.smtp) {
      parts.smtpListener = await startReceivingMail(context, config.smtp, metrics?.instruments.smtp);
    }
    await workers.delivery.start();
    await workers.mail?.start();
    await workers.drafts.start();
    await listenForScrapes(parts);
    const server = runningServer(parts, endpoints, apiKeys);
    logStarted(context, server);
    return server;
  } catch (error) {
    await shutDown(parts);
    throw error;
  }
}

/** Loopback conveniences asked for by name are started on any interface; but whoever reaches it can use them. */
function warnOfNetworkExposure({ config }: StartContext): void {
  if (config.exposedOnNetwork.length > 0) {
    // Asked for by name, so started; but whoever reaches this interface can use them: say so on every start.
    config.logger.warn("loopback conveniences on a network interface: anyone who reaches it can use them", {
      host: config.host,
      exposed: config.exposedOnNetwork.join(", "),
    });
  }
}

/** The server as its caller holds it; closing it again waits for the same shutdown. */
function runningServer(
  parts: ServerParts,
  endpoints: Record<ServiceName, RunningServer>,
  apiKeys: ApiKeys,
): Server<string | null> {
  const { config, instanceId } = parts.context;
  const { smtpListener, metricsListener } = parts;
  let closing: Promise<void> | undefined;
  return {
    inbox: { url: endpoints.inbox.url, apiKey: config.devKeys?.inbox ?? null },
    forum: { url: endpoints.forum.url, apiKey: config.devKeys?.forum ?? null },
    smtp: smtpListener ? { host: smtpListener.host, port: smtpListener.port, url: smtpListener.url } : null,
    metrics: metricsListener ? { url: metricsListener.url } : null,
    testControl: config.testControl ? { baseUrl: endpoints.inbox.url, key: config.testControl.key } : null,
    createApiKey: (service, keyOptions) => registerKey(apiKeys, service, { name: keyOptions?.name }),
    close() {
      closing ??= drainThenShutDown(parts).then(() =>
        config.logger.info("server stopped", { instance_id: instanceId }),
      );
      return closing;
    },
  };
}

function logStarted({ config, storage, instanceId }: StartContext, server: Server<string | null>): void {
  config.logger.info("server started", {
    inbox_url: server.inbox.url,
    forum_url: server.forum.url,
    smtp_url: server.smtp?.url ?? null,
    metrics_url: server.metrics?.url ?? null,
    smtp_relay: config.relay ? describeRelay(config.relay.url) : null,
    database: storage.description,
    instance_id: instanceId,
    test_control: config.testControl ? "on" : "off",
  });
}
