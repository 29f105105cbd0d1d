// `inbox_wait_for_message`: the inbox read as a queue. The oldest unread received message is taken (marked read);
// with none, the live event stream says when one arrives. Subscribing comes first, so that a message arriving
// between the look and the wait is heard rather than lost.
import { EventStreamError, type InboxClient, type Message } from "@pigeonhole/inbox";
import { WebSocket } from "ws";
import { DEFAULT_WAIT_SECONDS } from "./wait-tool-definition.js";

export interface WaitArguments {
  inbox_id: string;
  timeout_seconds?: number;
}

export interface WaitResult {
  message: Message | null;
  timed_out: boolean;
}

const UNREAD = ["received", "unread"];
// The unread messages looked through for the oldest: a queue deeper than this is read from this far back.
const PAGE_SIZE = 100;
const MAX_PAGES = 10;

/** The id of the oldest unread received message of the inbox, or null when there is none. */
async function oldestUnread(client: InboxClient, inbox_id: string, signal: AbortSignal): Promise<string | null> {
  let oldest: string | null = null;
  let page_token: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { messages, next_page_token } = await client.get("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id }, query: { labels: UNREAD, limit: PAGE_SIZE, page_token } },
      signal,
    });
    // Lists are newest first: the last item seen is the oldest.
    oldest = messages.at(-1)?.message_id ?? oldest;
    if (next_page_token === null) {
      break;
    }
    page_token = next_page_token;
  }
  return oldest;
}

/** Marks the message read and answers it in full. */
function take(client: InboxClient, inbox_id: string, message_id: string): Promise<Message> {
  return client.patch("/v0/inboxes/{inbox_id}/messages/{message_id}", {
    params: { path: { inbox_id, message_id } },
    body: { remove_labels: ["unread"] },
  });
}

/** The stream names the subscription's `inbox_ids.0`; the caller sent the tool's `inbox_id`. */
function inTermsOfTheTool(error: unknown): unknown {
  if (!(error instanceof EventStreamError) || !error.field?.startsWith("inbox_ids")) {
    return error;
  }
  const message = error.message.replace(`${error.code}: `, "");
  const type = error.type as ConstructorParameters<typeof EventStreamError>[0]["type"];
  return new EventStreamError({ type, message, details: { code: error.code, field: "inbox_id" } });
}

/** Waits up to the timeout for an unread message of the inbox; `signal` ends the wait early (the call was cancelled). */
export async function waitForMessage(
  client: InboxClient,
  { inbox_id, timeout_seconds = DEFAULT_WAIT_SECONDS }: WaitArguments,
  signal?: AbortSignal,
): Promise<WaitResult> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), timeout_seconds * 1000);
  const cancel = () => stop.abort();
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    const events = client.events({
      inbox_ids: [inbox_id],
      event_types: ["message.received"],
      signal: stop.signal,
      WebSocket,
    });
    await events.ready();
    const waiting = await oldestUnread(client, inbox_id, stop.signal);
    if (waiting !== null) {
      return { message: await take(client, inbox_id, waiting), timed_out: false };
    }
    for await (const event of events) {
      if (event.event_type === "message.received") {
        return { message: await take(client, inbox_id, event.message.message_id), timed_out: false };
      }
    }
    return { message: null, timed_out: true };
  } catch (error) {
    if (stop.signal.aborted) {
      // The time ran out (or the call was cancelled) before the stream subscribed or a request answered.
      return { message: null, timed_out: true };
    }
    throw inTermsOfTheTool(error);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", cancel);
    stop.abort();
  }
}
