import type { operations, WaitForMessageResponse, WebhookDelivery } from "@pigeonhole/test-control-types";
import type { CallOptions, TestControlApi } from "./api.js";
import { WaitTimedOutError } from "./errors.js";

type Query<Operation extends keyof operations> = NonNullable<operations[Operation]["parameters"]["query"]>;

/** The filters of a wait as the spec names them, with `since` also taken as a `Date`. */
type WaitFilter<Operation extends keyof operations> = Omit<Query<Operation>, "since"> & { since?: Date | string };

/**
 * What `waitForMessage` waits for: every filter given must match. `from` and `to` are exact addresses, `subject`
 * and `text` are contained (without regard to case), `label` lists labels that must all be present, `since` skips
 * older messages, and `timeout_ms` (default 10 000, at most 60 000) bounds the wait.
 */
export type MessageFilter = WaitFilter<"waitForMessage">;

/**
 * What `waitForWebhookDelivery` waits for: every filter given must match (`webhook_id`, `event_type`, `event_id`,
 * `status`, `since`); `timeout_ms` (default 10 000, at most 60 000) bounds the wait.
 */
export type WebhookDeliveryFilter = WaitFilter<"waitForWebhookDelivery">;

/** The server's wait when the filter names none. */
export const DEFAULT_WAIT_MS = 10_000;
/** Time for the answer to travel, on top of the server's wait, before the call gives up on the connection. */
export const WAIT_MARGIN_MS = 5_000;

export interface WaitControl {
  /**
   * Resolves as soon as a message matching `filter` exists (at once if one already does), with the links and
   * one-time codes of its text and html; rejects with `WaitTimedOutError` when none arrives within `timeout_ms`.
   */
  waitForMessage(filter?: MessageFilter, options?: CallOptions): Promise<WaitForMessageResponse>;
  /**
   * Resolves to the newest webhook delivery matching `filter` as soon as one exists, with every attempt so far;
   * rejects with `WaitTimedOutError` when none matches within `timeout_ms`.
   */
  waitForWebhookDelivery(filter?: WebhookDeliveryFilter, options?: CallOptions): Promise<WebhookDelivery>;
}

export function waitControl(api: TestControlApi): WaitControl {
  return {
    waitForMessage: (filter = {}, options) =>
      api
        .get("/_test/wait/message", { ...longPoll(filter, options), params: { query: asQuery(filter) } })
        .catch(explainTimeout("a message", filter)),
    waitForWebhookDelivery: async (filter = {}, options) => {
      const { delivery } = await api
        .get("/_test/wait/webhook-delivery", { ...longPoll(filter, options), params: { query: asQuery(filter) } })
        .catch(explainTimeout("a webhook delivery", filter));
      return delivery;
    },
  };
}

/**
 * A long poll is not retried (a retry would wait all over again) and waits for the server's whole wait plus a
 * margin, unless the call says otherwise.
 */
function longPoll(filter: { timeout_ms?: number }, options: CallOptions = {}): CallOptions {
  return { maxRetries: 0, timeout: (filter.timeout_ms ?? DEFAULT_WAIT_MS) + WAIT_MARGIN_MS, ...options };
}

/** The filter as the query: `since` as ISO 8601, the rest as given and in the order given. */
function asQuery<T extends { since?: Date | string }>(filter: T): Omit<T, "since"> & { since?: string } {
  const { since } = filter;
  return since instanceof Date ? { ...filter, since: since.toISOString() } : (filter as Omit<T, "since">);
}

/** Rethrows a timeout with what was waited for in its message, so a failed test says which wait gave up. */
function explainTimeout(what: string, filter: object) {
  return (error: unknown): never => {
    if (error instanceof WaitTimedOutError) {
      throw new WaitTimedOutError(
        error.status,
        error.body,
        error.headers,
        `${error.message} (waited for ${what} matching ${JSON.stringify(filter)})`,
      );
    }
    throw error;
  };
}
