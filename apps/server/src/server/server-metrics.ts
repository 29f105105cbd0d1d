import type { RunningMetricsListener } from "../metrics/metrics-listener.ts";
import { startMetricsListener } from "../metrics/metrics-listener.ts";
import { ServerMetrics } from "../metrics/server-metrics.ts";
import type { ServerParts } from "./server-parts.ts";

/**
 * The server's metrics when `metricsPort` is given, recorded in `parts`; none otherwise, and then nothing is counted.
 * The queue depths are read, when scraped, by the server's clock (test control's when it is on).
 */
export function createMetrics(parts: ServerParts): ServerMetrics | undefined {
  const { config, storage, clock } = parts.context;
  if (!config.metrics) {
    return undefined;
  }
  parts.metrics = new ServerMetrics({
    sources: {
      webhookDeliveries: () => storage.outbox.depth(clock.now()),
      outboundMail: () => storage.mailQueue.depth(clock.now()),
      websocketConnections: () => parts.eventStream?.openConnections ?? 0,
      ...(storage.poolUse ? { databasePool: storage.poolUse } : {}),
    },
  });
  return parts.metrics;
}

/** Serves the metrics on their own listener, recorded in `parts` to be closed. */
export async function listenForScrapes(parts: ServerParts): Promise<RunningMetricsListener | undefined> {
  const { config } = parts.context;
  if (!parts.metrics || !config.metrics) {
    return undefined;
  }
  parts.metricsListener = await startMetricsListener(parts.metrics, { ...config.metrics, logger: config.logger });
  return parts.metricsListener;
}
