// Runs in Chromium, bundled by esbuild from the built client package, as an app would ship it: the browser's own
// WebSocket and fetch, nothing else.
import { AuthenticationError, createInboxClient, type WebhookEvent } from "@pigeonhole/inbox";

export interface Listen {
  baseUrl: string;
  apiKey: string;
  inbox_ids: string[];
}

/** What the page's loop has seen so far, and how it ended once it has. */
export interface Heard {
  events: WebhookEvent[];
  ended: string | null;
}

const heard: Heard = { events: [], ended: null };
let controller: AbortController | undefined;
let loop: Promise<void> | undefined;

/** Starts reading the received messages of `inbox_ids`, in the background, as an app's page would. */
function listen({ baseUrl, apiKey, inbox_ids }: Listen): void {
  controller = new AbortController();
  const inbox = createInboxClient({ baseUrl, apiKey });
  loop = (async () => {
    try {
      for await (const event of inbox.events({
        inbox_ids,
        event_types: ["message.received"],
        signal: controller.signal,
      })) {
        heard.events.push(event);
      }
      heard.ended = "ended";
    } catch (error) {
      heard.ended = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
  })();
}

/** Aborts the loop and answers how it ended. */
async function stop(): Promise<string | null> {
  controller?.abort();
  await loop;
  return heard.ended;
}

/** The first thing a loop with `apiKey` does: answers the error it rejects with, as the page sees it. */
async function firstError(baseUrl: string, apiKey: string) {
  const inbox = createInboxClient({ baseUrl, apiKey });
  try {
    for await (const event of inbox.events()) {
      return { unexpected: event.event_id };
    }
    return { unexpected: "the loop ended" };
  } catch (error) {
    return {
      authentication: error instanceof AuthenticationError,
      name: error instanceof Error ? error.name : typeof error,
      status: error instanceof AuthenticationError ? error.status : null,
    };
  }
}

Object.assign(globalThis, { listen, stop, firstError, heard });
