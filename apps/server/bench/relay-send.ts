import type { Relay } from "@pigeonhole/mail-testing";
import { simpleParser } from "mailparser";
import { startCpuWindow } from "./cpu-window.ts";
import { getMessage, type InboxTarget, sendMessage } from "./inbox-api.ts";
import type { MailMeasurement } from "./mail-report.ts";
import { percentile } from "./percentile.ts";
import { reconcile } from "./reconcile.ts";
import { inParallel } from "./seed.ts";

export interface RelaySendTargets {
  /** The sending inbox through each instance's API; the connections are spread evenly over them. */
  senders: readonly InboxTarget[];
  relay: Relay;
  serverPids: readonly number[];
  databasePid?: number;
}

export interface RelaySendSettings {
  messages: number;
  connections: number;
}

/** An outside address: the server relays its mail, and the relay keeps it. */
export const RELAY_RECIPIENT = "bench-reader@example.org";
/** How long the relay may take to deliver the sends, beyond a base, per message. */
const DELIVERY_TIMEOUT = { baseMs: 30_000, perMessageMs: 100 };
/** How long the run waits after the last delivery for any message delivered twice. */
const DOUBLES_WAIT_MS = 500;
const LOOKUPS_IN_PARALLEL = 8;

/** The Message-ID of each delivered message, as the server wrote it. */
async function deliveredMessageIds(raws: readonly Buffer[]): Promise<string[]> {
  const ids: string[] = new Array(raws.length);
  await inParallel(raws.length, LOOKUPS_IN_PARALLEL, async (i) => {
    const raw = raws[i];
    ids[i] = raw === undefined ? "" : ((await simpleParser(raw)).messageId ?? "");
  });
  return ids;
}

/**
 * Sends `messages` messages to an outside address through the API over `connections` concurrent requests, with the
 * servers relaying through `relay`, and measures until the relay has delivered them all; then checks that each was
 * delivered once. The latency of a message runs from the start of its send to the relay's acceptance, as the
 * server recorded it in the message's delivery. Bounded by the relay's delivery timeout.
 */
export async function runRelaySend(targets: RelaySendTargets, settings: RelaySendSettings): Promise<MailMeasurement> {
  if (targets.senders.length === 0) {
    throw new Error("No server instance to send through.");
  }
  const before = (await targets.relay.delivered()).length;
  const sendStarts = new Map<string, number>();
  let failed = 0;
  let firstError: unknown;
  let next = 0;
  const window = startCpuWindow({ servers: targets.serverPids, database: targets.databasePid });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(settings.connections, settings.messages) }, async (_, sender) => {
      const target = targets.senders[sender % targets.senders.length];
      if (!target) {
        return;
      }
      while (next < settings.messages) {
        const index = next++;
        const start = Date.now();
        try {
          const sent = await sendMessage(target, {
            to: RELAY_RECIPIENT,
            subject: `Relay benchmark #${index}`,
            text: `Message ${index} of the relay benchmark.`,
          });
          sendStarts.set(sent.message_id, start);
        } catch (error) {
          failed++;
          firstError ??= error;
        }
      }
    }),
  );
  if (sendStarts.size === 0) {
    throw new Error(`No send through the API succeeded: ${String(firstError)}`);
  }
  const timeoutMs = DELIVERY_TIMEOUT.baseMs + DELIVERY_TIMEOUT.perMessageMs * sendStarts.size;
  let allDelivered = true;
  try {
    await targets.relay.waitForDelivered(before + sendStarts.size, timeoutMs);
  } catch (error) {
    // The check below counts what is missing.
    allDelivered = false;
    process.stderr.write(`${String(error)}\n`);
  }
  const elapsedSeconds = (performance.now() - started) / 1000;
  const cpu = window();
  await new Promise((resolve) => setTimeout(resolve, DOUBLES_WAIT_MS));
  const delivered = (await targets.relay.delivered()).slice(before);
  const check = reconcile(sendStarts.keys(), await deliveredMessageIds(delivered.map((message) => message.raw)));
  const [lookup] = targets.senders;
  const latencies: number[] = [];
  if (lookup) {
    const ids = [...sendStarts.keys()];
    await inParallel(ids.length, LOOKUPS_IN_PARALLEL, async (i) => {
      const id = ids[i] as string;
      const message = await getMessage(lookup, id);
      const delivery = message.deliveries.find(
        (each) => each.address === RELAY_RECIPIENT && each.status === "delivered",
      );
      if (delivery) {
        latencies.push(Date.parse(delivery.updated_at) - (sendStarts.get(id) ?? 0));
      }
    });
  }
  return {
    name: allDelivered ? "relayed through Postfix" : "relayed through Postfix (timed out)",
    messages: settings.messages,
    perSecond: check.confirmed / elapsedSeconds,
    latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
    cpu,
    check: { verb: "relayed", failed, ...check },
  };
}
