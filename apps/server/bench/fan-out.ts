import { setTimeout as sleep } from "node:timers/promises";
import type { EventStreamMessage, EventSubscription, SendMessageResponse } from "@pigeonhole/inbox-types";
import { type CpuUse, startCpuWindow } from "./cpu-window.ts";
import { percentile } from "./percentile.ts";

export interface FanOutSettings {
  /** WebSocket connections that subscribe to the sent messages. */
  subscribers: number;
  /** Messages sent, one after another. */
  messages: number;
  /** Time from one send's start to the next one's (longer when a send takes longer). */
  intervalMs: number;
}

export interface FanOutTargets {
  /** The inbox service the subscribers connect to. */
  subscribeUrl: string;
  /** The inbox service the messages are sent through (another instance, or the same). */
  sendUrl: string;
  inboxKey: string;
  /** The inbox that sends the messages. */
  inbox: string;
  /** Processes whose CPU time the run counts. */
  serverPids: readonly number[];
  databasePid?: number;
}

export interface FanOutResult {
  subscribers: number;
  messages: number;
  /** `message.sent` events of the run's sends the subscribers received, repeats included. */
  delivered: number;
  /** Events a subscriber never received (of subscribers times messages). */
  lost: number;
  /** Events a subscriber received more than once. */
  repeated: number;
  /** Delivered events per second, from the first send's start to the last receipt. */
  eventsPerSecond: number;
  /** From the start of a send's request to a subscriber's receipt of its event, over every receipt. */
  latencyMs: { p50: number; p99: number; max: number };
  /** How long the sends took to answer. */
  sendP50Ms: number;
  cpu: CpuUse;
}

/** Every delivered event's latency and how many were lost or repeated, from the sends' starts and the receipts. */
export function summariseReceipts(
  sendStarts: ReadonlyMap<string, number>,
  receipts: readonly (readonly { messageId: string; at: number }[])[],
): { latencies: number[]; lost: number; repeated: number; lastAt: number } {
  const latencies: number[] = [];
  let lost = 0;
  let repeated = 0;
  let lastAt = Number.NEGATIVE_INFINITY;
  for (const subscriber of receipts) {
    const seen = new Set<string>();
    for (const { messageId, at } of subscriber) {
      const start = sendStarts.get(messageId);
      if (start === undefined) {
        continue;
      }
      if (seen.has(messageId)) {
        repeated++;
      }
      seen.add(messageId);
      latencies.push(at - start);
      lastAt = Math.max(lastAt, at);
    }
    lost += sendStarts.size - seen.size;
  }
  return { latencies, lost, repeated, lastAt };
}

const CONNECT_TIMEOUT_MS = 15_000;
/** How long after the last send the run waits for events still on their way. */
const DRAIN_TIMEOUT_MS = 10_000;

interface Subscriber {
  socket: WebSocket;
  receipts: { messageId: string; at: number }[];
}

function streamUrl(inboxUrl: string, inboxKey: string): string {
  const url = new URL("/v0/ws", inboxUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("api_key", inboxKey);
  return url.href;
}

/** Opens a connection, subscribes to the inbox's `message.sent` events, and resolves once the server confirms. */
function subscribe(url: string, inbox: string): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const subscriber: Subscriber = { socket, receipts: [] };
    let subscribed = false;
    const fail = (reason: string) => {
      if (subscribed) {
        return;
      }
      clearTimeout(timer);
      socket.close();
      reject(new Error(`A subscriber could not subscribe: ${reason}`));
    };
    const timer = setTimeout(() => fail(`no answer within ${CONNECT_TIMEOUT_MS} ms`), CONNECT_TIMEOUT_MS);
    socket.addEventListener("open", () => {
      const subscription: EventSubscription = { type: "subscribe", event_types: ["message.sent"], inbox_ids: [inbox] };
      socket.send(JSON.stringify(subscription));
    });
    socket.addEventListener("message", (event: MessageEvent) => {
      const at = performance.now();
      // The server's messages follow the spec, which the server's own tests hold it to.
      const data = JSON.parse(String(event.data)) as EventStreamMessage;
      if (data.type === "event") {
        if (data.event_type === "message.sent") {
          subscriber.receipts.push({ messageId: data.send.message_id, at });
        }
      } else if (data.type === "subscribed") {
        subscribed = true;
        clearTimeout(timer);
        resolve(subscriber);
      } else {
        fail(`${data.error.details.code}: ${data.error.message}`);
      }
    });
    socket.addEventListener("error", () => {
      fail(`the connection to ${url.replace(/api_key=[^&]*/, "api_key=…")} failed`);
    });
    socket.addEventListener("close", (event: CloseEvent) => {
      fail(`closed with ${event.code} ${event.reason}`);
    });
  });
}

async function closeAll(subscribers: readonly Subscriber[]): Promise<void> {
  await Promise.all(
    subscribers.map(
      ({ socket }) =>
        new Promise<void>((resolve) => {
          if (socket.readyState === WebSocket.CLOSED) {
            resolve();
            return;
          }
          const timer = setTimeout(resolve, 2_000);
          socket.addEventListener("close", () => {
            clearTimeout(timer);
            resolve();
          });
          socket.close(1000);
        }),
    ),
  );
}

async function send(targets: FanOutTargets, index: number): Promise<SendMessageResponse> {
  const response = await fetch(`${targets.sendUrl}/v0/inboxes/${encodeURIComponent(targets.inbox)}/messages`, {
    method: "POST",
    headers: { Authorization: `Bearer ${targets.inboxKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      to: "someone@example.com",
      subject: `Fan-out ${index}`,
      text: "Heard by every subscriber.",
    }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) {
    throw new Error(`Sending fan-out message ${index} answered ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as SendMessageResponse;
}

/**
 * Connects the subscribers, sends the messages one after another, and measures how soon each subscriber hears of
 * each one. Bounded: the sends take about `messages * intervalMs`, then at most {@link DRAIN_TIMEOUT_MS} more.
 */
export async function runFanOut(targets: FanOutTargets, settings: FanOutSettings): Promise<FanOutResult> {
  const url = streamUrl(targets.subscribeUrl, targets.inboxKey);
  const settled = await Promise.allSettled(
    Array.from({ length: settings.subscribers }, () => subscribe(url, targets.inbox)),
  );
  const subscribers = settled.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  try {
    const failed = settled.find((result) => result.status === "rejected");
    if (failed) {
      throw failed.reason;
    }
    const sendStarts = new Map<string, number>();
    const sendTimes: number[] = [];
    const window = startCpuWindow({ servers: targets.serverPids, database: targets.databasePid });
    const firstStart = performance.now();
    for (let i = 0; i < settings.messages; i++) {
      const start = performance.now();
      const sent = await send(targets, i);
      sendTimes.push(performance.now() - start);
      sendStarts.set(sent.message_id, start);
      const next = firstStart + (i + 1) * settings.intervalMs;
      await sleep(Math.max(0, next - performance.now()));
    }
    const expected = settings.subscribers * settings.messages;
    const drainUntil = performance.now() + DRAIN_TIMEOUT_MS;
    const received = () => subscribers.reduce((sum, subscriber) => sum + subscriber.receipts.length, 0);
    while (received() < expected && performance.now() < drainUntil) {
      await sleep(5);
    }
    const cpu = window();
    const summary = summariseReceipts(
      sendStarts,
      subscribers.map((subscriber) => subscriber.receipts),
    );
    const elapsedSeconds = (summary.lastAt - firstStart) / 1000;
    return {
      subscribers: settings.subscribers,
      messages: settings.messages,
      delivered: summary.latencies.length,
      lost: summary.lost,
      repeated: summary.repeated,
      eventsPerSecond: elapsedSeconds > 0 ? summary.latencies.length / elapsedSeconds : 0,
      latencyMs: {
        p50: percentile(summary.latencies, 50),
        p99: percentile(summary.latencies, 99),
        max: percentile(summary.latencies, 100),
      },
      sendP50Ms: percentile(sendTimes, 50),
      cpu,
    };
  } finally {
    await closeAll(subscribers);
  }
}
