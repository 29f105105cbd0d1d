import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { EventSubscribed, EventSubscription } from "@pigeonhole/inbox-types";
import type { WebSocket } from "ws";
import { WebSocketServer } from "ws";
import type { Clock } from "../../clock.ts";
import type { InboxCaller } from "../../keys/api-keys.ts";
import type { ServerLogger } from "../../logger.ts";
import { normalizeAddress } from "../../mail/mail-address.ts";
import { DEFAULT_WEBSOCKET_CONNECTIONS_PER_KEY } from "../../options/defaults.ts";
import type { EventLog } from "../../storage/inbox/event-log.ts";
import type { EventHub, EventSubscriber } from "./event-hub.ts";
import type { ParseSubscription } from "./subscription.ts";
import { EventStreamProblem } from "./subscription.ts";

/** How long events are kept for `after`. */
export const EVENT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export interface EventStreamLimits {
  /** A connection that sends no subscription this long is closed 1008. */
  subscribeTimeoutMs: number;
  /** Ping interval; a peer that has not answered the previous ping by the next is cut off. */
  pingIntervalMs: number;
  /**
   * Unsent bytes a connection may hold. An event that would take it past them is not queued: the connection is
   * closed 1013 instead, and its client resumes with `after`. An event larger than this is sent onto an empty queue.
   */
  maxQueuedBytes: number;
  /** A connection whose queue stays past `maxQueuedBytes` this long (one large event unread) is closed 1013. */
  stallMs: number;
  /** Connections one API key (its pod: keys of one pod count together) may hold at once on this instance. */
  connectionsPerKey: number;
  /** On shutdown, how long clients have to answer the 1001 close before their connections are cut. */
  closeGraceMs: number;
}

export const DEFAULT_EVENT_STREAM_LIMITS: EventStreamLimits = {
  subscribeTimeoutMs: 10_000,
  pingIntervalMs: 30_000,
  maxQueuedBytes: 1024 * 1024,
  stallMs: 5_000,
  connectionsPerKey: DEFAULT_WEBSOCKET_CONNECTIONS_PER_KEY,
  closeGraceMs: 1_000,
};

/** Close codes of RFC 6455 that the stream uses. */
const GOING_AWAY = 1001;
const POLICY_VIOLATION = 1008;
const TRY_AGAIN_LATER = 1013;
const SLOW_READER_REASON = "Client reads too slowly; reconnect with after";

export interface EventStreamOptions {
  hub: EventHub;
  log: EventLog;
  parseSubscription: ParseSubscription;
  logger: ServerLogger;
  clock: Clock;
  limits?: Partial<EventStreamLimits>;
}

/** Who opened a connection, as the authenticated upgrade request said. */
export interface AcceptedUpgrade {
  caller: InboxCaller;
  requestId: string;
  /** The address the upgrade request came from (see client-address.ts). */
  clientAddress: string;
}

/**
 * The live event stream's WebSocket connections: each subscribes once, then hears the events of its API key from the
 * hub. The upgrade request has been authenticated and counted before a connection gets here.
 */
export class EventStream {
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  readonly #options: EventStreamOptions;
  readonly #limits: EventStreamLimits;
  readonly #open = new Set<WebSocket>();
  readonly #alive = new WeakSet<WebSocket>();
  readonly #connectionsByPod = new Map<string, number>();
  readonly #pinger: NodeJS.Timeout;
  #closing = false;

  constructor(options: EventStreamOptions) {
    this.#options = options;
    this.#limits = { ...DEFAULT_EVENT_STREAM_LIMITS, ...options.limits };
    this.#pinger = setInterval(() => this.#ping(), this.#limits.pingIntervalMs);
    this.#pinger.unref();
  }

  /**
   * Takes one of the pod's connection slots for `socket` until it closes; false when the pod holds
   * `connectionsPerKey` connections already (the upgrade is then refused).
   */
  admit(podId: string, socket: Duplex): boolean {
    const held = this.#connectionsByPod.get(podId) ?? 0;
    if (held >= this.#limits.connectionsPerKey) {
      return false;
    }
    this.#connectionsByPod.set(podId, held + 1);
    const release = () => {
      const left = (this.#connectionsByPod.get(podId) ?? 1) - 1;
      if (left > 0) {
        this.#connectionsByPod.set(podId, left);
      } else {
        this.#connectionsByPod.delete(podId);
      }
    };
    if (socket.destroyed) {
      release();
    } else {
      socket.once("close", release);
    }
    return true;
  }

  /** Completes the WebSocket handshake of an authenticated upgrade request and serves the connection. */
  accept(request: IncomingMessage, socket: Duplex, head: Buffer, upgrade: AcceptedUpgrade): void {
    this.#wss.handleUpgrade(request, socket, head, (ws) => {
      if (this.#closing) {
        ws.close(GOING_AWAY, "Server shutting down");
        return;
      }
      this.#serve(ws, upgrade);
    });
  }

  /** The connections open now (for metrics). */
  get openConnections(): number {
    return this.#open.size;
  }

  /** Closes every connection with 1001, giving clients a moment to answer before their connections are cut. */
  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#pinger);
    const open = [...this.#open];
    await Promise.all(
      open.map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === ws.CLOSED) {
              resolve();
              return;
            }
            const timer = setTimeout(() => {
              ws.terminate();
              resolve();
            }, this.#limits.closeGraceMs);
            ws.once("close", () => {
              clearTimeout(timer);
              resolve();
            });
            ws.close(GOING_AWAY, "Server shutting down");
          }),
      ),
    );
    this.#wss.close();
  }

  #ping() {
    for (const ws of this.#open) {
      if (!this.#alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.#alive.delete(ws);
      ws.ping();
    }
  }

  #serve(ws: WebSocket, { caller, requestId, clientAddress }: AcceptedUpgrade) {
    const { hub, logger } = this.#options;
    const started = performance.now();
    let state: "waiting" | "subscribing" | "subscribed" | "closed" = "waiting";
    let subscriber: (EventSubscriber & { stallTimer?: NodeJS.Timeout }) | undefined;
    let sent = 0;
    this.#open.add(ws);
    this.#alive.add(ws);
    ws.on("pong", () => this.#alive.add(ws));

    const fail = (problem: EventStreamProblem) => {
      if (state === "closed") {
        return;
      }
      state = "closed";
      ws.send(JSON.stringify(problem.toMessage()));
      ws.close(POLICY_VIOLATION, problem.code);
    };
    const subscribeTimer = setTimeout(
      () =>
        fail(
          new EventStreamProblem(
            "INVALID_VALUE",
            `No subscription arrived within ${this.#limits.subscribeTimeoutMs / 1000} s of connecting.`,
          ),
        ),
      this.#limits.subscribeTimeoutMs,
    );

    ws.on("message", (data, isBinary) => {
      if (state !== "waiting") {
        fail(new EventStreamProblem("INVALID_VALUE", "A connection subscribes once; connect again to change it."));
        return;
      }
      clearTimeout(subscribeTimer);
      state = "subscribing";
      const text = !isBinary && Buffer.isBuffer(data) ? data.toString("utf8") : "";
      void this.#subscribe(caller.podId, text).then(
        (accepted) => {
          if (state !== "subscribing") {
            return;
          }
          state = "subscribed";
          ws.send(JSON.stringify(accepted.answer));
          subscriber = this.#subscriber(ws, caller.podId, accepted, () => {
            sent++;
          });
          hub.add(subscriber);
        },
        (error: unknown) => {
          if (error instanceof EventStreamProblem) {
            fail(error);
            return;
          }
          logger.error("event stream subscription failed", {
            request_id: requestId,
            error: error instanceof Error ? error.message : String(error),
          });
          state = "closed";
          ws.close(1011, "Internal error");
        },
      );
    });
    ws.on("error", () => ws.terminate());
    ws.on("close", (code) => {
      state = "closed";
      clearTimeout(subscribeTimer);
      clearTimeout(subscriber?.stallTimer);
      if (subscriber) {
        hub.remove(subscriber);
      }
      this.#open.delete(ws);
      logger.info("event stream", {
        request_id: requestId,
        client_address: clientAddress,
        pod_id: caller.podId,
        events_sent: sent,
        close_code: code,
        duration_ms: Math.round(performance.now() - started),
      });
    });
  }

  /** Checks a subscription's inboxes and resume point, and answers where its events start. */
  async #subscribe(podId: string, text: string) {
    const subscription: EventSubscription = this.#options.parseSubscription(text);
    const { log, clock } = this.#options;
    const inboxIds = subscription.inbox_ids ? [...new Set(subscription.inbox_ids.map(normalizeAddress))] : null;
    if (inboxIds) {
      const found = new Set(await log.inboxesOfPod(podId, inboxIds));
      const missing = inboxIds.findIndex((id) => !found.has(id));
      if (missing >= 0) {
        throw new EventStreamProblem(
          "NOT_FOUND",
          `Inbox '${inboxIds[missing]}' was not found.`,
          `inbox_ids.${missing}`,
        );
      }
    }
    let position: number;
    if (subscription.after === undefined) {
      position = await log.latestPosition(podId);
    } else {
      const found = await log.positionOf(podId, subscription.after, clock.now() - EVENT_RETENTION_MS);
      if (found === null) {
        throw new EventStreamProblem(
          "EVENT_NOT_FOUND",
          `after: event '${subscription.after}' is unknown or older than 7 days.`,
          "after",
        );
      }
      position = found;
    }
    const eventTypes = subscription.event_types ? [...new Set(subscription.event_types)] : null;
    const answer: EventSubscribed = { type: "subscribed", event_types: eventTypes, inbox_ids: inboxIds };
    return { answer, position, eventTypes, inboxIds };
  }

  /**
   * The hub's view of a connection. Its queue never grows past `maxQueuedBytes` (or one event larger than that, sent
   * onto an empty queue): an event that does not fit is left in the log and the connection is closed 1013, so that
   * its client resumes with `after` and misses nothing. Past the bound after one large event, it takes nothing more
   * until the queue is written out, and is closed 1013 if that takes `stallMs`.
   */
  #subscriber(
    ws: WebSocket,
    podId: string,
    accepted: { position: number; eventTypes: string[] | null; inboxIds: string[] | null },
    onSent: () => void,
  ): EventSubscriber & { stallTimer?: NodeJS.Timeout } {
    const { hub, logger } = this.#options;
    const limits = this.#limits;
    const subscriber = {
      podId,
      eventTypes: accepted.eventTypes ? new Set(accepted.eventTypes) : null,
      inboxIds: accepted.inboxIds ? new Set(accepted.inboxIds) : null,
      position: accepted.position,
      paused: false,
      stallTimer: undefined as NodeJS.Timeout | undefined,
      send(frame: Buffer): boolean {
        const queued = ws.bufferedAmount;
        if (queued > 0 && queued + frame.length > limits.maxQueuedBytes) {
          closeSlowReader();
          return false;
        }
        onSent();
        ws.send(frame, { binary: false });
        if (ws.bufferedAmount > limits.maxQueuedBytes) {
          waitForDrain();
        }
        return true;
      },
    };
    const closeSlowReader = () => {
      subscriber.paused = true;
      clearTimeout(subscriber.stallTimer);
      logger.info("event stream reader too slow", {
        pod_id: podId,
        queued_bytes: ws.bufferedAmount,
      });
      ws.close(TRY_AGAIN_LATER, SLOW_READER_REASON);
    };
    const waitForDrain = () => {
      if (subscriber.paused) {
        return;
      }
      subscriber.paused = true;
      subscriber.stallTimer = setTimeout(closeSlowReader, limits.stallMs);
      // A ping queued behind everything else is written once all of it is: the queue has drained.
      ws.ping(undefined, undefined, (error) => {
        if (error || ws.readyState !== ws.OPEN) {
          return;
        }
        subscriber.paused = false;
        clearTimeout(subscriber.stallTimer);
        subscriber.stallTimer = undefined;
        hub.wake(podId);
      });
    };
    return subscriber;
  }
}
