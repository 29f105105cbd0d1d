import { PigeonholeError } from "@pigeonhole/client-core";
import type {
  EventStreamMessage,
  EventSubscription,
  EventStreamError as StreamErrorMessage,
  WebhookEvent,
} from "@pigeonhole/inbox-types";

/** A handler property whose event type is compared both ways, so that the DOM's and the `ws` package's both fit. */
type Handler<E> = { bivarianceHack(event: E): void }["bivarianceHack"] | null;

/** The part of a WHATWG `WebSocket` the event stream uses: browsers', Node's (22+) and the `ws` package's fit it. */
export interface EventSocket {
  onopen: Handler<unknown>;
  onmessage: Handler<{ data: unknown }>;
  onclose: Handler<{ code: number }>;
  onerror: Handler<unknown>;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** A `WebSocket` constructor, for runtimes without a global one (Node 20: `import { WebSocket } from "ws"`). */
export type EventSocketConstructor = new (url: string) => EventSocket;

/** Options of `inbox.events()`: the subscription's filters, where to resume, and how to stop. */
export interface EventsOptions {
  /** Only events of these types; every type when left out. */
  event_types?: EventSubscription["event_types"];
  /** Only events of these inboxes of the API key; every inbox when left out. */
  inbox_ids?: EventSubscription["inbox_ids"];
  /** The `event_id` of the last event already handled: the stream starts with the events after it. */
  after?: string | undefined;
  /** Aborting it ends the loop quietly and closes the connection. */
  signal?: AbortSignal | undefined;
  /** The WebSocket class to connect with; defaults to `globalThis.WebSocket`. */
  WebSocket?: EventSocketConstructor | undefined;
}

/**
 * The event stream refused the subscription (`EVENT_NOT_FOUND` for an `after` the service no longer keeps,
 * `NOT_FOUND` for an inbox that is not the key's, `INVALID_VALUE` for filters it does not accept).
 */
export class EventStreamError extends PigeonholeError {
  override name = "EventStreamError";
  /** The reason to branch on, such as `EVENT_NOT_FOUND`. */
  readonly code: string;
  /** The error type, such as `not_found_error`. */
  readonly type: string;
  /** The subscription field at fault, if one is. */
  readonly field: string | null;

  constructor(body: StreamErrorMessage["error"]) {
    super(`${body.details.code}: ${body.message}`);
    this.code = body.details.code;
    this.type = body.type;
    this.field = body.details.field;
  }
}

/** What the client tells the stream: where the service is, and how to explain a connection that never opens. */
export interface EventStreamTarget {
  baseUrl: string;
  apiKey: string;
  /** One ordinary request with the same key: it throws the typed error that explains a refused upgrade (401). */
  diagnose(signal: AbortSignal | undefined): Promise<void>;
}

// Reconnect delays grow from about half a second to about half a minute, each with a random half so that many
// clients dropped at once do not come back at once. A connection that subscribes starts the growth over.
const FIRST_DELAY_MS = 500;
const LONGEST_DELAY_MS = 30_000;
// Event ids remembered to skip one delivered twice; the service sends each once, so a short memory suffices.
const REMEMBERED_IDS = 1_000;

/** The `/v0/ws` address of a service at `baseUrl`, with the key in the query: a browser cannot set the header. */
export function eventStreamUrl(baseUrl: string, apiKey: string): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, "")}/v0/ws`);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("api_key", apiKey);
  return url.href;
}

/** The delay before reconnect attempt `failures + 1`: half fixed, half random, capped. */
export function reconnectDelay(failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(LONGEST_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(failures, 16));
  return ceiling / 2 + (random() * ceiling) / 2;
}

type Arrival = { data: unknown } | { closed: number; opened: boolean } | { aborted: true };

/** One connection: what arrives is queued until the loop asks for it. */
function connect(WebSocketClass: EventSocketConstructor, url: string, subscription: EventSubscription) {
  const socket = new WebSocketClass(url);
  const queue: Arrival[] = [];
  let wake: (() => void) | undefined;
  let opened = false;
  const push = (arrival: Arrival) => {
    queue.push(arrival);
    wake?.();
  };
  socket.onopen = () => {
    opened = true;
    socket.send(JSON.stringify(subscription));
  };
  socket.onmessage = (event) => push({ data: event.data });
  socket.onclose = (event) => push({ closed: event.code, opened });
  // A close always follows an error; a listener must exist all the same, or the `ws` package throws it.
  socket.onerror = () => {};
  return {
    abort: () => push({ aborted: true }),
    async next(): Promise<Arrival> {
      while (queue.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
      return queue.shift() as Arrival;
    },
    close() {
      socket.onmessage = null;
      socket.onclose = null;
      socket.close(1000);
    },
  };
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

function parse(data: unknown): EventStreamMessage | undefined {
  if (typeof data !== "string") {
    return undefined;
  }
  try {
    return JSON.parse(data) as EventStreamMessage;
  } catch {
    return undefined;
  }
}

/**
 * The events of the API key, live, as an async iterable: see `InboxClient.events`. Nothing connects until the loop
 * starts; a dropped connection is reopened with `after` set to the last event yielded. `onSubscribed` hears each
 * `{"type": "subscribed"}` of the service.
 */
export async function* streamEvents(
  target: EventStreamTarget,
  options: EventsOptions = {},
  onSubscribed: () => void = () => {},
): AsyncGenerator<WebhookEvent, void> {
  const { signal, event_types, inbox_ids } = options;
  const WebSocketClass = options.WebSocket ?? (globalThis.WebSocket as EventSocketConstructor | undefined);
  if (WebSocketClass === undefined) {
    throw new PigeonholeError(
      "This runtime has no global WebSocket: pass { WebSocket } to events(), e.g. the class of the ws package.",
    );
  }
  const url = eventStreamUrl(target.baseUrl, target.apiKey);
  let after = options.after;
  const seen = new Set<string>();
  let failures = 0;

  while (!signal?.aborted) {
    // Left-out filters are left out of the JSON too.
    const subscription: EventSubscription = { type: "subscribe", event_types, inbox_ids, after };
    const connection = connect(WebSocketClass, url, subscription);
    signal?.addEventListener("abort", connection.abort, { once: true });
    let closed: { closed: number; opened: boolean } | undefined;
    try {
      while (closed === undefined) {
        const arrival = await connection.next();
        if ("aborted" in arrival) {
          return;
        }
        if ("closed" in arrival) {
          closed = arrival;
          break;
        }
        const message = parse(arrival.data);
        if (message?.type === "error") {
          throw new EventStreamError(message.error);
        }
        if (message?.type === "subscribed") {
          failures = 0;
          onSubscribed();
        } else if (message?.type === "event" && !seen.has(message.event_id)) {
          seen.add(message.event_id);
          if (seen.size > REMEMBERED_IDS) {
            seen.delete(seen.values().next().value as string);
          }
          after = message.event_id;
          yield message;
        }
      }
    } finally {
      signal?.removeEventListener("abort", connection.abort);
      if (closed === undefined) {
        connection.close();
      }
    }
    if (!closed.opened) {
      // The upgrade was refused or never answered: an ordinary request says whether the key is the reason.
      try {
        await target.diagnose(signal);
      } catch (error) {
        if (signal?.aborted) {
          return;
        }
        throw error;
      }
    }
    await pause(reconnectDelay(failures++), signal);
  }
}

/** What `inbox.events()` answers: the events as an async iterable, and a way to wait until the service listens. */
export interface LiveEvents extends AsyncIterable<WebhookEvent> {
  /**
   * Resolves once the service has confirmed the subscription (`{"type": "subscribed"}`): every event stored from
   * then on reaches the loop, so mail sent after `await events.ready()` is never missed. Connects if the loop has
   * not started yet; the loop then goes on with that connection. Rejects as the loop would (`EventStreamError`,
   * `AuthenticationError`), or with `PigeonholeError` when `signal` ends the stream before it subscribed.
   */
  ready(): Promise<void>;
}

/** `streamEvents` behind `LiveEvents`: `ready()` may start the generator before the loop takes it over. */
export function liveEvents(target: EventStreamTarget, options: EventsOptions = {}): LiveEvents {
  let subscribed = false;
  let waiting: { promise: Promise<void>; resolve(): void; reject(error: unknown): void } | undefined;
  const generator = streamEvents(target, options, () => {
    subscribed = true;
    waiting?.resolve();
  });
  // A stream that ends before it subscribed leaves no one waiting forever.
  const ended = (error: unknown) => {
    if (!subscribed) {
      waiting?.reject(error);
    }
  };
  let started = false;
  // The first step of the generator, taken by `ready()` before the loop asked for it.
  let early: Promise<IteratorResult<WebhookEvent, void>> | undefined;
  const step = () => {
    started = true;
    return generator.next().then(
      (result) => {
        if (result.done) {
          ended(new PigeonholeError("The event stream ended before the service confirmed the subscription."));
        }
        return result;
      },
      (error: unknown) => {
        ended(error);
        throw error;
      },
    );
  };
  const iterator: AsyncIterator<WebhookEvent, void> = {
    next() {
      const first = early;
      early = undefined;
      return first ?? step();
    },
    return: () => generator.return(),
  };
  return {
    ready() {
      if (subscribed) {
        return Promise.resolve();
      }
      if (!waiting) {
        let resolve = () => {};
        let reject: (error: unknown) => void = () => {};
        const promise = new Promise<void>((yes, no) => {
          resolve = yes;
          reject = no;
        });
        waiting = { promise, resolve, reject };
      }
      if (!started) {
        early = step();
        // Its failure reaches the loop, if one comes, and `ready()` in any case.
        early.catch(() => {});
      }
      return waiting.promise;
    },
    [Symbol.asyncIterator]: () => iterator,
  };
}
