import { performance } from "node:perf_hooks";
import { postWebhook } from "./post-webhook.ts";
import { deliveryHeaders } from "./signing.ts";

/** One attempt to deliver an event to a webhook: what to send, where, and within how long. */
export interface DeliveryAttempt {
  webhookId: string;
  url: string;
  secret: string;
  eventId: string;
  eventType: string;
  /** The event's JSON body, the same bytes on every attempt. */
  payload: string;
  /** The server's time of the attempt (Unix milliseconds): the signature's timestamp. */
  nowMs: number;
  allowPrivate: boolean;
  timeoutMs: number;
  /** Aborted when the server shuts down: the outcome is then not recorded. */
  signal: AbortSignal;
}

/** What an attempt came to. */
export interface AttemptOutcome {
  /** The receiver's answer; null when none came. */
  statusCode: number | null;
  /** Why the attempt failed; null when it succeeded (a 2xx). */
  error: string | null;
  latencyMs: number;
}

/**
 * Makes one delivery attempt and says how it went; it never throws. The worker calls it through its `deliver`
 * option, so that a caller can stand in for the receiver (a fault answering a status instead of sending anything).
 */
export type DeliverAttempt = (attempt: DeliveryAttempt) => Promise<AttemptOutcome>;

const describeError = (error: unknown): string => {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
};

/** Signs the event for this attempt (a fresh timestamp, the same `webhook-id`) and POSTs it to the receiver. */
export const postDeliveryAttempt: DeliverAttempt = async (attempt) => {
  // Latency is real time, whatever the server's clock says.
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const { status } = await postWebhook({
      url: attempt.url,
      headers: {
        "content-type": "application/json",
        "user-agent": "pigeonhole-server",
        ...deliveryHeaders(attempt.secret, attempt.eventId, Math.floor(attempt.nowMs / 1000), attempt.payload),
      },
      body: attempt.payload,
      allowPrivate: attempt.allowPrivate,
      timeoutMs: attempt.timeoutMs,
      signal: attempt.signal,
    });
    const succeeded = status >= 200 && status <= 299;
    return {
      statusCode: status,
      error: succeeded ? null : `The receiver answered ${status}.`,
      latencyMs: elapsed(),
    };
  } catch (error) {
    return { statusCode: null, error: describeError(error), latencyMs: elapsed() };
  }
};
