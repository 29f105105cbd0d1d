import pg from "pg";
import { EVENT_CHANNEL } from "../inbox/event-log.ts";

/** A connection that hears which pods stored events, on any instance; closed by `close`. */
export interface EventNotifications {
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 1_000;

/**
 * Listens on the event channel over a connection of its own, outside the pool (a pooled connection is shared and
 * would drop its LISTEN). A lost connection is opened again after a pause; what was missed meanwhile the stream's
 * slow poll picks up, and `onReconnect` lets it look at once.
 */
export function listenForEvents(
  url: string,
  onPod: (podId: string) => void,
  onReconnect: () => void,
  onError: (error: Error) => void,
): EventNotifications {
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let connected = false;

  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    client = next;
    next.on("notification", (message) => {
      if (message.channel === EVENT_CHANNEL && message.payload) {
        onPod(message.payload);
      }
    });
    next.on("error", (error) => {
      onError(error);
      retry(next);
    });
    next.on("end", () => retry(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${EVENT_CHANNEL}`);
      if (connected) {
        onReconnect();
      }
      connected = true;
    } catch (error) {
      onError(error instanceof Error ? error : new Error(String(error)));
      retry(next);
    }
  };
  const retry = (lost: pg.Client) => {
    if (closed || client !== lost || timer) {
      return;
    }
    lost.end().catch(() => {});
    timer = setTimeout(() => {
      timer = undefined;
      if (!closed) {
        void connect();
      }
    }, RECONNECT_DELAY_MS);
    timer.unref();
  };
  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await client?.end().catch(() => {});
    },
  };
}
