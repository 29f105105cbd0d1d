import type { RunningServer } from "../http/listen.ts";
import { Readiness } from "../http/readiness.ts";
import { EventHub } from "../inbox/events/event-hub.ts";
import { EventPruner } from "../inbox/events/event-pruner.ts";
import type { EventStream } from "../inbox/events/event-stream.ts";
import type { RunningSmtpListener } from "../mail/inbound/smtp-listener.ts";
import type { RunningMetricsListener } from "../metrics/metrics-listener.ts";
import type { ServerMetrics } from "../metrics/server-metrics.ts";
import type { EventNotifications } from "../storage/postgres/event-notifications.ts";
import type { StartContext } from "./start-context.ts";
import type { Workers } from "./workers.ts";

/**
 * What a server has made that must be stopped: filled in as it starts, so that a start failing half way stops what
 * it made, and stopped in the order `shutDown` gives.
 */
export interface ServerParts {
  readonly context: StartContext;
  readonly hub: EventHub;
  readonly pruner: EventPruner;
  /** What `/ready` answers; draining from the moment the server starts to stop (see drain.ts). */
  readonly readiness: Readiness;
  /** The services' HTTP servers, each once it listens. */
  readonly servers: RunningServer[];
  workers?: Workers;
  eventStream?: EventStream;
  notifications?: EventNotifications;
  smtpListener?: RunningSmtpListener;
  /** The metrics, when they are on, and their listener once it listens. */
  metrics?: ServerMetrics;
  metricsListener?: RunningMetricsListener;
}

/**
 * The parts a server has from the start, beside its database: the hub of live events, the event pruner, and its
 * readiness (which reads the server's clock, test control's when it is on, to know how old a result is).
 */
export function firstParts(context: StartContext): ServerParts {
  const { config, storage, clock } = context;
  return {
    context,
    hub: new EventHub({ log: storage.events, logger: config.logger, pollMs: config.eventPollMs }),
    pruner: new EventPruner(storage.events, clock, config.logger),
    readiness: new Readiness({ check: () => storage.readiness(), clock, logger: config.logger }),
    servers: [],
  };
}

/** Stops whatever was made, in an order that loses nothing, and closes the database last. */
export async function shutDown(parts: ServerParts): Promise<void> {
  const { config, storage } = parts.context;
  // Answers from now on close their connections; a start failing half way has announced nothing to drain.
  parts.readiness.startDraining();
  // SMTP stops first: a message in the middle of DATA is not answered 250, so its sender keeps it and retries.
  await parts.smtpListener?.close();
  // WebSocket connections are told first (1001), so that the servers' close does not wait for them.
  await parts.eventStream?.close();
  parts.hub.stop();
  await parts.pruner.stop();
  await parts.notifications?.close();
  await Promise.all(parts.servers.map((server) => server.close(config.shutdownGraceMs)));
  // Scheduled drafts first: a draft sent now queues mail and events for the workers after it.
  await parts.workers?.drafts.stop();
  // Mail first: the outcomes it still records raise events for the webhook worker.
  await parts.workers?.mail?.stop();
  await parts.workers?.delivery.stop();
  // Scraped until the end, the drain included; a scrape reads the database, closed next.
  await parts.metricsListener?.close();
  await storage.close();
}
