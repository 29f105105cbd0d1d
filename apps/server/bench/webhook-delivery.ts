import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { SendMessageResponse, Webhook, WebhookEvent } from "@pigeonhole/inbox-types";
import { startWebhookReceiver } from "../test/support/webhook-receiver.ts";
import { percentile } from "./percentile.ts";
import { createInbox } from "./seed.ts";

export interface WebhookDeliverySettings {
  /** Messages sent, one after another; fewer when {@link SEND_PHASE_LIMIT_MS} runs out first. */
  messages: number;
  /** Time from one send's start to the next one's (longer when a send takes longer). */
  intervalMs: number;
}

export interface WebhookDeliveryTargets {
  /** The inbox service the messages are sent through. */
  sendUrl: string;
  inboxKey: string;
}

/** The events each send raises for the benchmark's webhook: the sender's, and the receiving inbox's on this server. */
export const DELIVERED_EVENTS = ["message.sent", "message.received"] as const;
export type DeliveredEvent = (typeof DELIVERED_EVENTS)[number];

/** One webhook request as the receiver took it in full. */
export interface Arrival {
  eventType: string;
  messageId: string;
  at: number;
}

/** Percentiles of a set of latencies, in milliseconds; NaN where there are none. */
export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface EventDeliveries {
  eventType: DeliveredEvent;
  /** From the send's 200 to the arrival of its event's first delivery. */
  latency: LatencySummary;
  /** Sends whose event never arrived. */
  lost: number;
  /** Deliveries of an event that had already arrived. */
  repeated: number;
}

export interface WebhookDeliveryResult {
  messages: number;
  /** The baseline, measured in the same run: each send request from its start to its 200. */
  send: LatencySummary;
  events: EventDeliveries[];
}

/** The p50, p95, p99 and largest of `values`. */
export function summariseLatencies(values: readonly number[]): LatencySummary {
  return {
    count: values.length,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    max: percentile(values, 100),
  };
}

/**
 * Per event type, how long after its send's 200 (`answeredAt`, by message id) each send's event arrived, and how many
 * never arrived or arrived twice. Arrivals of messages the run did not send are left out.
 */
export function summariseArrivals(
  answeredAt: ReadonlyMap<string, number>,
  arrivals: readonly Arrival[],
): EventDeliveries[] {
  return DELIVERED_EVENTS.map((eventType) => {
    const first = new Map<string, number>();
    let repeated = 0;
    for (const arrival of arrivals) {
      if (arrival.eventType !== eventType || !answeredAt.has(arrival.messageId)) {
        continue;
      }
      if (first.has(arrival.messageId)) {
        repeated++;
      } else {
        first.set(arrival.messageId, arrival.at);
      }
    }
    const latencies = [...first].map(([messageId, at]) => at - (answeredAt.get(messageId) ?? at));
    return { eventType, latency: summariseLatencies(latencies), lost: answeredAt.size - first.size, repeated };
  });
}

/** The message an event is about, or null for an event of another type. */
function arrivalOf(body: string, at: number): Arrival | null {
  // The server's events follow the spec, which its own tests hold it to.
  const event = JSON.parse(body) as WebhookEvent;
  if (event.event_type === "message.sent") {
    return { eventType: event.event_type, messageId: event.send.message_id, at };
  }
  if (event.event_type === "message.received") {
    return { eventType: event.event_type, messageId: event.message.message_id, at };
  }
  return null;
}

/** How long the sends may go on, whatever the count: the run stays bounded on a slow machine. */
const SEND_PHASE_LIMIT_MS = 60_000;
/** How long after the last send the run waits for deliveries still on their way. */
const DRAIN_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 10_000;

async function request<T>(url: string, inboxKey: string, method: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: { Authorization: `Bearer ${inboxKey}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  }
  // A deletion answers 204 without a body.
  return (text === "" ? undefined : JSON.parse(text)) as T;
}

/**
 * Sends messages from one new inbox to another on the same server, one after another, with a webhook for both inboxes'
 * `message.sent` and `message.received` pointed at a receiver on 127.0.0.1 (the server must allow private webhook
 * addresses), and measures how long after each send's 200 each event arrives. Bounded: the sends stop after
 * `messages` or {@link SEND_PHASE_LIMIT_MS}, then the run waits at most {@link DRAIN_TIMEOUT_MS} more.
 */
export async function runWebhookDelivery(
  targets: WebhookDeliveryTargets,
  settings: WebhookDeliverySettings,
): Promise<WebhookDeliveryResult> {
  const arrivals: Arrival[] = [];
  const receiver = await startWebhookReceiver((delivery) => {
    const arrival = arrivalOf(delivery.body, performance.now());
    if (arrival !== null) {
      arrivals.push(arrival);
    }
    return 200;
  });
  const api = (path: string) => `${targets.sendUrl}${path}`;
  const suffix = randomBytes(4).toString("hex");
  let webhookId: string | null = null;
  try {
    const from = await createInbox(targets.sendUrl, targets.inboxKey, `webhook-bench-from-${suffix}`);
    const to = await createInbox(targets.sendUrl, targets.inboxKey, `webhook-bench-to-${suffix}`);
    const webhook = await request<Webhook>(api("/v0/webhooks"), targets.inboxKey, "POST", {
      url: receiver.url,
      event_types: DELIVERED_EVENTS,
      inbox_ids: [from, to],
    });
    webhookId = webhook.webhook_id;
    const answeredAt = new Map<string, number>();
    const sendTimes: number[] = [];
    const firstStart = performance.now();
    for (let i = 0; i < settings.messages && performance.now() - firstStart < SEND_PHASE_LIMIT_MS; i++) {
      const start = performance.now();
      const sent = await request<SendMessageResponse>(
        api(`/v0/inboxes/${encodeURIComponent(from)}/messages`),
        targets.inboxKey,
        "POST",
        { to, subject: `Webhook ${i}`, text: "Heard by a webhook." },
      );
      const answered = performance.now();
      sendTimes.push(answered - start);
      answeredAt.set(sent.message_id, answered);
      await sleep(Math.max(0, firstStart + (i + 1) * settings.intervalMs - performance.now()));
    }
    const expected = answeredAt.size * DELIVERED_EVENTS.length;
    const drainUntil = performance.now() + DRAIN_TIMEOUT_MS;
    while (arrivals.length < expected && performance.now() < drainUntil) {
      await sleep(5);
    }
    return {
      messages: answeredAt.size,
      send: summariseLatencies(sendTimes),
      events: summariseArrivals(answeredAt, arrivals),
    };
  } finally {
    if (webhookId !== null) {
      // The pod outlives the run (later configurations use it): its webhook must not outlive the receiver.
      // A failure here would hide the run's own error, if any; a webhook left over only fails its deliveries.
      await request(api(`/v0/webhooks/${encodeURIComponent(webhookId)}`), targets.inboxKey, "DELETE").catch(() => {});
    }
    await receiver.close();
  }
}
