import { setTimeout as sleep } from "node:timers/promises";
import type { ServerParts } from "./server-parts.ts";
import { shutDown } from "./server-parts.ts";

/**
 * How a running server stops (`close()`, and so SIGTERM and SIGINT) without failing a request, in this order:
 *
 * 1. At once, `/ready` answers 503 `{"status":"unavailable","reason":"draining"}` on both ports (`/health` still
 *    answers 200: the process is alive), and from then on every answer carries `Connection: close`, so that each
 *    keep-alive connection, a balancer's included, ends after its next answer rather than being cut later.
 * 2. For `drainDelayMs` (`--drain-delay-ms`, default 0), nothing else changes: new connections are accepted and every
 *    request is served as before. This is the moment a balancer that polls `/ready` needs to take the instance out
 *    (its interval times the failures it waits for), so that it stops sending before the ports close.
 * 3. Then `shutDown`: SMTP stops, live event streams are closed (1001), the ports stop accepting connections (a
 *    balancer such as nginx passes a refused connection on to the next server), idle connections are closed, and
 *    requests in flight are answered, for at most `shutdownGraceMs` (10 s) before their connections are cut.
 * 4. The workers stop and hand their claimed rows back to the other instances; the database closes.
 */
export async function drainThenShutDown(parts: ServerParts): Promise<void> {
  const { config, instanceId } = parts.context;
  parts.readiness.startDraining();
  if (config.drainDelayMs > 0) {
    config.logger.info("draining: not ready, still serving until the delay ends", {
      drain_delay_ms: config.drainDelayMs,
      instance_id: instanceId,
    });
    await sleep(config.drainDelayMs);
  }
  await shutDown(parts);
}
