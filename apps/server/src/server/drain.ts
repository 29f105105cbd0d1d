import { setTimeout as sleep } from "node:timers/promises";
import type { ServerParts } from "./server-parts.ts";
import { shutDown } from "./server-parts.ts";

/**
 * How a running server stops (`close()`, and so SIGTERM and SIGINT) without failing a request, in this order:
 *
 * 1. At once, `/ready` answers 503 `{"status":"unavailable","reason":"draining"}` on both ports (`/health` still
 *    answers 200: the process is alive), and each keep-alive connection open then, a balancer's included, ends after
 *    its next answer (`Connection: close`) rather than being cut later, so that its holder reconnects elsewhere.
 * 2. For `drainDelayMs` (`--drain-delay-ms`, default 0), nothing else changes: new connections are accepted, and
 *    kept, and every request is served as before. This is the moment a balancer that polls `/ready` needs to take the
 *    instance out (its interval times the failures it waits for), so that it stops sending before the ports close.
 *    One that does not poll (nginx) reuses the connections it opens now rather than opening one per request.
 * 3. Then `shutDown`: SMTP stops, live event streams are closed (1001), the ports stop accepting connections (a
 *    balancer such as nginx passes a refused connection on to the next server), every answer closes its connection,
 *    requests in flight are answered, and idle connections are closed (after a drain, only once idle past the
 *    keep-alive timeout, which nginx's shorter one beats), for at most `shutdownGraceMs` (10 s) before they are cut.
 * 4. The workers stop and hand their claimed rows back to the other instances; the database closes.
 */
export async function drainThenShutDown(parts: ServerParts): Promise<void> {
  const { config, instanceId } = parts.context;
  parts.readiness.startDraining();
  for (const server of parts.servers) {
    server.drain();
  }
  if (config.drainDelayMs > 0) {
    config.logger.info("draining: not ready, still serving until the delay ends", {
      drain_delay_ms: config.drainDelayMs,
      instance_id: instanceId,
    });
    await sleep(config.drainDelayMs);
  }
  await shutDown(parts);
}
